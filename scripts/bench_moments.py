#!/usr/bin/env python3
"""Moments at the scale of a lifetime: a 30,000-photo library's timeline.

It makes a library shaped like a real one (twelve years: trips of several
busy days in other cities, single busy days at home, and many quiet days of
one to four phone photos; a third of home photos without GPS), out of tiny
JPEGs (benchlib.tiny_jpeg: 16x16, its own EXIF date, GPS and pixels per
file, so every file is its own item), builds it with gallerygen (tiny renditions: the pages are what is
measured), and reports:

- the cold build, and a rebuild that renders every page again (a new title),
  with the rendering work by kind of page (`--verbose`);
- the moments pages: how many, the first one's size and the largest;
- the month index: from moments/index.html, following links only, how many
  clicks reach each month's first section (every month must be ≤ 2);
- with `moment_places: true`: the build again, and the section headings.

usage: scripts/bench_moments.py [--count 30000] [--work DIR] [--binary PATH]
Needs nothing but Python.
"""
import argparse
import collections
import datetime
import html.parser
import os
import random
import re
import sys
import urllib.parse
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # benchlib, also when imported from the tests
import benchlib  # noqa: E402  (what the benchmarks share: the timer, the peers, the libraries)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))

# (name, latitude, longitude); the first is home.
CITIES = [("Berlin", 52.5200, 13.4050), ("Kyoto", 35.0116, 135.7681), ("Osaka", 34.6937, 135.5023),
          ("Paris", 48.8566, 2.3522), ("Lisbon", 38.7223, -9.1393), ("Zermatt", 46.0207, 7.7491),
          ("New York", 40.7128, -74.0060), ("Edinburgh", 55.9533, -3.1883), ("Rome", 41.9028, 12.4964)]


def plan(count, seed=11):
    """(album, datetime, city or None) for every photo, twelve years of them."""
    rng = random.Random(seed)
    shots = []
    for year in range(2014, 2026):
        days = [datetime.date(year, 1, 1) + datetime.timedelta(days=d) for d in range(365)]
        busy = set()
        for trip in range(3):
            start = rng.choice(days[:-12])
            cities = rng.sample(CITIES[1:], 2)
            length = rng.randint(3, 9)
            album = f"{year}/{start:%m} {cities[0][0]} trip"
            for d in range(length):
                day = start + datetime.timedelta(days=d)
                busy.add(day)
                city = cities[0] if d < length * 2 // 3 else cities[1]
                for i in range(rng.randint(40, 250)):
                    shots.append((album, datetime.datetime.combine(day, datetime.time(8)) + datetime.timedelta(seconds=i * 97), city[0]))
        for event in range(8):
            day = rng.choice(days)
            busy.add(day)
            album = f"{year}/{day:%m-%d} Event"
            for i in range(rng.randint(30, 150)):
                shots.append((album, datetime.datetime.combine(day, datetime.time(15)) + datetime.timedelta(seconds=i * 41), "Berlin"))
        for day in rng.sample(days, 120):
            if day in busy:
                continue
            city = "Berlin" if rng.random() < 0.67 else None
            for i in range(rng.randint(1, 4)):
                shots.append((f"{year}/Phone", datetime.datetime.combine(day, datetime.time(9)) + datetime.timedelta(minutes=i * 53), city))
    if len(shots) > count:
        shots = sorted(rng.sample(shots, count), key=lambda s: s[1])
    return shots


def make_library(folder, count):
    """The photos of `plan(count)` as tiny JPEGs (benchlib.tiny_jpeg), each
    with its capture time and, when it has a city, that city's GPS."""
    library = os.path.join(folder, "library")
    places = {name: (lat, lon) for name, lat, lon in CITIES}
    shots = plan(count)
    numbers = collections.Counter()
    for n, (album, when, city) in enumerate(shots):
        path = os.path.join(library, album)
        os.makedirs(path, exist_ok=True)
        numbers[album] += 1
        with open(os.path.join(path, f"IMG_{numbers[album]:04d}.jpg"), "wb") as f:
            f.write(benchlib.tiny_jpeg(n, when, gps=places.get(city)))
    return shots


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids, self.refresh = [], set(), None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        # A page that sends the reader on at once (a month page): where to.
        if tag == "meta" and (attrs.get("http-equiv") or "").lower() == "refresh":
            delay, _, url = (attrs.get("content") or "").partition(";")
            if delay.strip() == "0" and url.strip().startswith("url="):
                self.refresh = url.strip()[4:]
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])


def parse(path):
    parser = Links()
    parser.feed(open(path, encoding="utf-8").read())
    return parser


def clicks_to_months(site, months):
    """Breadth-first over links from moments/index.html: for each month
    (YYYY-MM), the clicks to reach a link that lands on an existing anchor of
    a section of that month, with no script run: a page that refreshes at once
    is followed at no cost. Opening a <details> counts as a click too, so the
    rail's folded years are counted as one more click (the years page needs none)."""
    start = os.path.join(site, "moments", "index.html")
    pages = {}

    def load(path):
        if path not in pages:
            pages[path] = parse(path) if os.path.exists(path) else None
        return pages[path]

    found = {}
    frontier, seen = [start], {start}
    for depth in (1, 2):
        following = []
        for page in frontier:
            for href in load(page).links:
                target, _, anchor = urllib.parse.urljoin("file://" + page, href)[7:].partition("#")
                target = urllib.parse.unquote(target)
                parsed = load(target) if target.endswith(".html") and target.startswith(site) else None
                if parsed is not None and parsed.refresh is not None:
                    target, _, anchor = urllib.parse.urljoin("file://" + target, parsed.refresh)[7:].partition("#")
                    target = urllib.parse.unquote(target)
                    parsed = load(target) if target.endswith(".html") and target.startswith(site) else None
                if parsed is None:
                    continue
                # The id the address names must be on the page it names: no script goes looking.
                if anchor and anchor in parsed.ids and "moments" in target:
                    # The anchor is a section heading: which month is it?
                    month = re.match(r"[dm]-(\d{4}-\d{2})", anchor)
                    if month and month.group(1) in months:
                        # Links in the rail of a moments page sit inside a folded year (one more click),
                        # except the year this page unfolds; the years page has no folds.
                        cost = depth if "years.html" in page else depth + (0 if f'data-month="{month.group(1)}" aria-current' in open(page).read() else 1)
                        found[month.group(1)] = min(found.get(month.group(1), 9), cost)
                if target not in seen:
                    seen.add(target)
                    following.append(target)
        frontier = following
    return found


def build(binary, library, out, *extra):
    """(wall seconds, the build's --verbose log) of one build, by benchlib's timer."""
    run = benchlib.run_timed([binary, "build", library, "--output", out, "--quiet", "--verbose", "--thumbnail-size", "64x48",
                              "--preview-size", "128x96", "--format", "jpeg", *extra])
    return run.wall, run.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=30000)
    parser.add_argument("--work", default="/tmp/gallerygen-moments-bench")
    parser.add_argument("--binary", help="default: a release build of this checkout")
    args = parser.parse_args()
    args.binary = args.binary or benchlib.build_binary()
    library = os.path.join(args.work, "library")
    shots = plan(args.count)
    if not os.path.isdir(library):
        os.makedirs(args.work, exist_ok=True)
        make_library(args.work, args.count)
    months = {when.strftime("%Y-%m") for _, when, _ in shots}
    days = collections.Counter(when.date() for _, when, _ in shots)
    print(f"library: {len(shots)} photos, {len(days)} days ({sum(1 for n in days.values() if n <= 6)} with 6 or fewer), {len(months)} months")
    out = os.path.join(args.work, "site")
    benchlib.remove_site(out)
    seconds, log = build(args.binary, library, out)
    print(f"cold build: {seconds:.1f} s")
    seconds, log = build(args.binary, library, out, "--title", "Renamed")
    print(f"rebuild rendering every page (new title): {seconds:.1f} s")
    for line in log.splitlines():
        if line.startswith("step render") or line.startswith("  "):
            print("   ", line.strip())
    moments = os.path.join(out, "moments")
    sizes = {name: os.path.getsize(os.path.join(moments, name)) for name in os.listdir(moments) if name.endswith(".html")}
    pages = [n for n in sizes if n.startswith("index")]
    print(f"moments pages: {len(pages)}; first {sizes['index.html'] / 1e3:.1f} KB, largest {max(sizes[n] for n in pages) / 1e3:.1f} KB, "
          f"years.html {sizes['years.html'] / 1e3:.1f} KB")
    found = clicks_to_months(out, months)
    worst = max(found.values()) if found else None
    missing = sorted(months - set(found))
    print(f"month index: {len(found)} of {len(months)} months reached from moments/index.html, at most {worst} clicks"
          + (f"; NOT reached: {missing[:10]}" if missing else ""))
    seconds, log = build(args.binary, library, out, "--title", "Renamed", "--config", write_config(args.work, "moment_places: true"))
    print(f"rebuild with moment_places: true: {seconds:.1f} s")
    first = open(os.path.join(moments, "index.html"), encoding="utf-8").read()
    headings = re.findall(r'<time datetime="[^"]+">([^<]+)</time>', first)
    print("first page's headings:", "; ".join(headings[:6]))
    print(f"first moments page with places: {len(first.encode()) / 1e3:.1f} KB")
    if missing or worst is None or worst > 2 or len(first.encode()) > 200_000:
        sys.exit("bench_moments: a target was missed")


def write_config(folder, text):
    path = os.path.join(folder, "gallery.yml")
    with open(path, "w") as f:
        f.write(text + "\n")
    return path


if __name__ == "__main__":
    main()
