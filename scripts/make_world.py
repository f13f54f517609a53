#!/usr/bin/env python3
"""Makes Themes/default/static/map/world.js, the world map under `map: true`:
the countries of Natural Earth (1:110m, public domain, naturalearthdata.com)
as one SVG path in Web Mercator, so a site's map needs no tile server and
works offline and from file://.

The data is Natural Earth's `ne_110m_admin_0_countries` as the `geopandas`
0.14.4 wheel on PyPI carries it (`naturalearth_lowres.shp`), by
`pip download`, its SHA-256 checked against the one pinned here. Only the
polygons are read (a few lines below read the shapefile format; no GIS
library is needed).

The path is in the world square of Web Mercator tiles, 256 units wide
(x = 0 at 180° W, y = 0 at 85.0511° N: zoom level 0's one tile), in
hundredths of a unit (so `transform="scale(.01)"`), each ring absolute at its
start and relative after it, points closer than a hundredth dropped. Each
polygon's rings are drawn filled, so coastlines and borders are its edges.

The file is a script, so it loads from file:// too:
    gallerygenWorld("M…z…");

usage: scripts/make_world.py [--wheel FILE]   (run from anywhere; rewrites the file)
"""
import argparse
import hashlib
import io
import math
import os
import struct
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
OUT = os.path.join(ROOT, "Themes", "default", "static", "map", "world.js")
PACKAGE, VERSION = "geopandas", "0.14.4"
WHEEL_SHA256 = "3bb6473cb59d51e1a7fe2dbc24a1a063fb0ebdeddf3ce08ddbf8c7ddc99689aa"
SHAPES = "geopandas/datasets/naturalearth_lowres/naturalearth_lowres.shp"
LIMIT = 85.0511287798  # Web Mercator's latitude limit: the world is square


def wheel_bytes():
    pip = os.path.join(ROOT, ".build", "venv", "bin", "pip")
    command = [pip] if os.path.exists(pip) else [sys.executable, "-m", "pip"]
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(command + ["download", "--no-deps", "--only-binary", ":all:", "-d", folder, f"{PACKAGE}=={VERSION}"],
                       check=True, stdout=subprocess.DEVNULL)
        (name,) = os.listdir(folder)
        return open(os.path.join(folder, name), "rb").read()


def polygons(shp):
    """Each record's rings, as lists of (longitude, latitude)."""
    if struct.unpack(">i", shp[0:4])[0] != 9994:
        sys.exit("make_world: not a shapefile")
    offset = 100
    while offset + 8 <= len(shp):
        _, length = struct.unpack(">ii", shp[offset:offset + 8])
        record = shp[offset + 8:offset + 8 + length * 2]
        offset += 8 + length * 2
        (kind,) = struct.unpack("<i", record[0:4])
        if kind != 5:  # polygons only (null shapes skipped)
            continue
        parts, points = struct.unpack("<ii", record[36:44])
        starts = list(struct.unpack(f"<{parts}i", record[44:44 + 4 * parts])) + [points]
        base = 44 + 4 * parts
        xy = struct.unpack(f"<{2 * points}d", record[base:base + 16 * points])
        for a, b in zip(starts, starts[1:]):
            yield [(xy[2 * i], xy[2 * i + 1]) for i in range(a, b)]


def project(longitude, latitude):
    """Web Mercator, in hundredths of the 256-unit world square."""
    latitude = max(-LIMIT, min(LIMIT, latitude))
    x = (longitude + 180) / 360 * 256
    sine = math.sin(math.radians(latitude))
    y = (0.5 - math.log((1 + sine) / (1 - sine)) / (4 * math.pi)) * 256
    return round(x * 100), round(y * 100)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wheel", help=f"a {PACKAGE}-{VERSION} wheel already downloaded")
    args = parser.parse_args()
    data = open(args.wheel, "rb").read() if args.wheel else wheel_bytes()
    if hashlib.sha256(data).hexdigest() != WHEEL_SHA256:
        sys.exit(f"make_world: the wheel is not {PACKAGE} {VERSION} as published (SHA-256 differs)")
    with zipfile.ZipFile(io.BytesIO(data)) as wheel:
        shp = wheel.read(SHAPES)
    commands = []
    for ring in polygons(shp):
        points = []
        for longitude, latitude in ring:
            point = project(longitude, latitude)
            if not points or point != points[-1]:
                points.append(point)
        if len(points) < 4:
            continue
        text = f"M{points[0][0]} {points[0][1]}l"
        steps = []
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            steps.append(f"{x1 - x0} {y1 - y0}")
        # SVG reads "3-4" as 3 then -4: a space only before a number without a sign.
        text += " ".join(steps).replace(" -", "-") + "z"
        commands.append(text)
    path = "".join(commands)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT + ".tmp", "w", encoding="ascii") as f:
        f.write("/* The world's countries: Natural Earth 1:110m (public domain), made by scripts/make_world.py. */\n")
        f.write(f'gallerygenWorld("{path}");\n')
    os.replace(OUT + ".tmp", OUT)
    print(f"{OUT}: {len(commands)} rings, {os.path.getsize(OUT)} bytes")


if __name__ == "__main__":
    main()
