#!/usr/bin/env python3
"""What publishing people costs a rebuild at scale: the same library built
with `publish_people: true` and without, in one run, side by side.

Makes a library of tiny JPEGs (as bench_scale.py does: 100 photos an album,
twelve years), a fifth of them carrying MWG face regions in their XMP (one to
three faces each, names from a pool of 400 people, as digiKam or Lightroom
write them), then for people off and on, each into its own OUT:

  cold      the first build
  then `--rounds` interleaved rounds of:
  no-op     nothing changed
  add one   one tagged photo copied into one album (removed again after both)

and prints wall and CPU seconds, peak RSS, pages rendered, and the on/off ratios.
The floor of a no-op is listing the library (`find -printf`), timed first.

usage: scripts/bench_people.py [--count 100000] [--work DIR] [--binary PATH] [--rounds 3]
"""
import argparse
import datetime
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from bench_scale import make_library, rendered  # noqa: E402

FIRST = ["Ada", "Alan", "Grace", "Marie", "Pierre", "Irène", "Emmy", "Lise", "Niels", "Rosalind",
         "Katherine", "Dorothy", "Barbara", "Claude", "John", "Hedy", "Rachel", "Chien-Shiung", "Tu", "Srinivasa"]
LAST = ["Lovelace", "Turing", "Hopper", "Curie", "Noether", "Meitner", "Bohr", "Franklin", "Johnson", "Vaughan",
        "McClintock", "Shannon", "Lamarr", "Carson", "Wu", "Youyou", "Ramanujan", "Hodgkin", "Goodall", "Sagan"]
PEOPLE = [f"{f} {l}" for f in FIRST for l in LAST]          # 400 people


def xmp_segment(number):
    """An APP1 XMP segment with one to three named face regions."""
    faces = []
    for i in range(1 + number % 3):
        name = PEOPLE[(number * 7 + i * 131) % len(PEOPLE)]
        faces.append(f'<rdf:li><rdf:Description mwg-rs:Name="{name}" mwg-rs:Type="Face">'
                     f'<mwg-rs:Area stArea:x="{0.2 + 0.3 * i:.2f}" stArea:y="0.4" stArea:w="0.15" stArea:h="0.2" stArea:unit="normalized"/>'
                     '</rdf:Description></rdf:li>')
    packet = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
              '<rdf:Description rdf:about="" xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/" '
              'xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#"><mwg-rs:Regions rdf:parseType="Resource"><mwg-rs:RegionList><rdf:Bag>'
              + "".join(faces) + '</rdf:Bag></mwg-rs:RegionList></mwg-rs:Regions></rdf:Description></rdf:RDF></x:xmpmeta>')
    body = b"http://ns.adobe.com/xap/1.0/\0" + packet.encode()
    return b"\xff\xe1" + (len(body) + 2).to_bytes(2, "big") + body


def photo(number, when, tagged):
    """A tiny JPEG (bench_scale's), with face regions when `tagged`."""
    jpeg = benchlib.tiny_jpeg(number, when)
    return jpeg[:2] + xmp_segment(number) + jpeg[2:] if tagged else jpeg


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--work", default=None, help="folder for the library and sites (default /tmp/gallerygen-people-COUNT)")
    parser.add_argument("--binary", default=None, help="gallerygen to measure (default: a release build of this checkout)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    work = args.work or f"/tmp/gallerygen-people-{args.count}"
    library = os.path.join(work, "library")
    made = os.path.join(work, "library-made")
    if not os.path.exists(made):
        print(f"making {args.count:,} tiny JPEGs (a fifth with face tags) in {library} …", flush=True)
        shutil.rmtree(library, ignore_errors=True)
        make_library(library, args.count, photo=lambda number, when: photo(number, when, number % 5 == 0), settings=False)
        open(made, "w").close()
    binary = args.binary or benchlib.build_binary()
    builds = {}
    for mode in ("off", "on"):
        config = os.path.join(work, f"people-{mode}.yml")
        with open(config, "w") as f:
            f.write("title: People\nthumbnail_sizes: [32x24]\npreview_sizes: [64x48]\nformat: jpeg\n"
                    f"publish_people: {'true' if mode == 'on' else 'false'}\n")
        out = os.path.join(work, "site-" + mode)
        benchlib.remove_site(out)
        builds[mode] = [binary, "build", library, "-o", out, "--config", config]

    listing = min((benchlib.run_timed(["find", library, "-type", "f", "-printf", "%s %T@ %p\\n"]) for _ in range(3)),
                  key=lambda r: r.wall)
    print(f"listing the library (find -printf, best of 3): {listing.wall:.2f} s wall")
    album = sorted(os.path.join(dp, d) for dp, ds, _ in os.walk(library) for d in ds if "album" in d)[len(os.listdir(library)) // 2]
    added = os.path.join(album, "IMG_9999.jpg")
    tagged = photo(args.count + 5, datetime.datetime(2019, 6, 1, 12), True)

    results = {}

    def measure(step, mode):
        run = benchlib.run_timed(builds[mode])
        pages, total = rendered(run)
        results.setdefault((step, mode), []).append((run, pages, total))
        print(f"{step:8s} people {mode:3s} {run.wall:7.2f} s wall {run.cpu:7.2f} s CPU {run.peak_mb:6.0f} MB  "
              f"rendered {pages} of {total} pages", flush=True)

    for mode in ("off", "on"):
        measure("cold", mode)
    for _ in range(args.rounds):
        for mode in ("off", "on"):
            measure("no-op", mode)
        with open(added, "wb") as f:
            f.write(tagged)
        for mode in ("off", "on"):
            measure("add one", mode)
        os.remove(added)
        for mode in ("off", "on"):
            benchlib.run_timed(builds[mode])

    def best(step, mode):
        return min(results[(step, mode)], key=lambda r: r[0].wall)

    print()
    print(f"| step ({args.count:,} items, best of {args.rounds}) | people off: wall s, peak MB | people on: wall s, peak MB | on / off | pages rendered (off, on) |")
    print("| --- | --- | --- | --- | --- |")
    for step in ("cold", "no-op", "add one"):
        off, on = best(step, "off"), best(step, "on")
        print(f"| {step} | {off[0].wall:.2f}, {off[0].peak_mb:.0f} | {on[0].wall:.2f}, {on[0].peak_mb:.0f} | "
              f"{on[0].wall / off[0].wall:.2f}x | {off[1]} of {off[2]}, {on[1]} of {on[2]} |")
    noop_on, add_on = best("no-op", "on")[0], best("add one", "on")[0]
    print()
    print(f"people on: no-op / listing {noop_on.wall / listing.wall:.1f}x; add one / no-op {add_on.wall / noop_on.wall:.2f}x; "
          f"peak {max(r[0].peak_mb for k, v in results.items() if k[1] == 'on' and k[0] != 'cold' for r in v):.0f} MB")


if __name__ == "__main__":
    main()
