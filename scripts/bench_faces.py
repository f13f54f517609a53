#!/usr/bin/env python3
"""Faces found on the build machine (`faces: auto`): how well, at what cost.

1. Quality, on the labelled set of real photos (scripts/face-photos.sh: three
   people, 28 photos, 31 faces): the set is built with faces on, `gallerygen
   people --json` lists what was found, and each labelled face is matched to
   a found one (one box mostly inside the other). Printed: detection recall
   (labelled faces found and clear enough to group), stray detections, and
   the grouping's pairwise precision (of the pairs of labelled faces put in
   one group, the share that are one person) and recall (of the pairs that
   are one person, the share put in one group).
2. Cost per photo: `--photos` photos of `--megapixels` MP made from the
   labelled originals (one or two people each, scaled up), built cold with
   faces off and on, `--rounds` times interleaved: CPU seconds per photo for
   each, and what faces add to the build's own cost.
3. At scale (`--scale COUNT`, e.g. 100000): bench_scale's tiny JPEGs, faces
   off and on side by side: cold, then `--rounds` of no-op and add-one (a
   real face photo added), wall, CPU and peak memory, against listing the files.

usage: scripts/bench_faces.py [--photos 8] [--megapixels 12] [--scale 0] [--rounds 3] [--binary PATH] [--work DIR]
"""
import argparse
import datetime
import json
import os
import shutil
import sys

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from bench_scale import make_library, rendered  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
PHOTOS = os.environ.get("GALLERYGEN_FACE_PHOTOS", os.path.join(ROOT, ".build", "face-photos"))
MODELS = os.environ.get("GALLERYGEN_FACE_MODELS", os.path.join(ROOT, ".build", "face-models"))


def same_face(a, b):
    """As FaceNaming.sameFace: the share of the smaller box inside the larger,
    when at least 60 % and the larger at most 4 times the smaller; else 0."""
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0
    small, large = sorted((a[2] * a[3], b[2] * b[3]))
    if small <= 0 or large > 4 * small:
        return 0
    inside = w * h / small
    return inside if inside >= 0.6 else 0


def config(path, faces, extra=""):
    with open(path, "w") as f:
        f.write(f"title: Faces\nfaces: {'auto' if faces else 'off'}\nface_models: {MODELS}\npublish_people: true\n{extra}")
    return path


def read_table(path):
    """The faces table (`Faces/FaceLibrary.swift`, format 3): {path: [(box, group, descriptor)]}
    of the photos with faces (the photos without, kept as numbers after them, are not read)."""
    import struct
    data = open(path, "rb").read()
    magic = b"gallerygen faces 3\n"
    assert data.startswith(magic), "not a faces table of format 3"
    at = len(magic)

    def take(n):
        nonlocal at
        at += n
        return data[at - n:at]

    def integer():
        return struct.unpack("<q", take(8))[0]

    def string():
        return take(integer()).decode()

    string()
    integer()
    for _ in range(integer()):
        integer()
        string()
    photos = {}
    for _ in range(integer()):
        string()
        path = string()
        faces = []
        for _ in range(integer()):
            box = struct.unpack("<4d", take(32))
            take(4)
            integer()
            group = integer()
            descriptor = struct.unpack("<128e", take(256))
            faces.append((list(box), group or None, descriptor))
        photos[path] = faces
    return photos


def distances(table, labels):
    """The descriptor distances between labelled faces: one person's, and two people's."""
    import math
    faces = []
    for photo, found in table.items():
        for box, _, descriptor in found:
            label = max(((same_face(f["box"], box), f["name"]) for f in labels.get(os.path.basename(photo), [])), default=(0, None))
            if label[0] > 0:
                faces.append((label[1], descriptor))
    same, other = [], []
    for i in range(len(faces)):
        for j in range(i + 1, len(faces)):
            d = math.dist(faces[i][1], faces[j][1])
            (same if faces[i][0] == faces[j][0] else other).append(d)
    same.sort()
    other.sort()
    if same and other:
        print(f"descriptor distances: one person's pairs median {same[len(same) // 2]:.3f}, 95th percentile "
              f"{same[int(len(same) * 0.95)]:.3f}, largest {same[-1]:.3f}; two people's smallest {other[0]:.3f}, "
              f"median {other[len(other) // 2]:.3f}")


def quality(binary, work):
    labels = json.load(open(os.path.join(PHOTOS, "labels.json")))["photos"]
    library = os.path.join(work, "labelled")
    shutil.rmtree(library, ignore_errors=True)
    os.makedirs(library)
    for name in labels:
        shutil.copy(os.path.join(PHOTOS, name), library)
    out = os.path.join(work, "labelled-site")
    benchlib.remove_site(out)
    yml = config(os.path.join(work, "labelled.yml"), True, "thumbnail_sizes: [280x210]\npreview_sizes: [800x600, 1600x1200]\n")
    benchlib.run_timed([binary, "build", library, "-o", out, "--config", yml])
    listing = json.loads(benchlib.run_timed([binary, "people", library, "-o", out, "--config", yml, "--json"]).stdout)
    found = []   # (photo, box, group or None)
    for group in listing["groups"]:
        for face in group["faces"]:
            found.append((face["photo"], face["box"], group["id"]))
    for face in listing["ungrouped"]:
        found.append((face["photo"], face["box"], None))
    labelled = [(photo, face["name"], face["box"]) for photo, faces in labels.items() for face in faces]
    matched, used = [], set()
    for photo, name, box in labelled:
        best = max(((same_face(box, f[1]), i) for i, f in enumerate(found) if f[0] == photo and i not in used), default=(0, None))
        if best[0] > 0:
            used.add(best[1])
            matched.append((name, found[best[1]][2]))
        else:
            matched.append((name, None))
    detected = sum(1 for _, group in matched if group is not None)
    stray = len(found) - len(used)
    same = together = both = 0
    for i in range(len(matched)):
        for j in range(i + 1, len(matched)):
            a, b = matched[i], matched[j]
            one_person = a[0] == b[0]
            one_group = a[1] is not None and a[1] == b[1]
            same += one_person
            together += one_group
            both += one_person and one_group
    precision = both / together if together else 1.0
    recall = both / same if same else 1.0
    people = len({name for _, name, _ in labelled})
    distances(read_table(os.path.join(benchlib.state_folder(out), "faces.bin")), labels)
    print(f"labelled set: {len(labels)} photos, {len(labelled)} faces of {people} people")
    print(f"detection recall {detected / len(labelled):.3f} ({detected} of {len(labelled)} faces found and grouped); "
          f"{stray} stray detections")
    print(f"grouping: pairwise precision {precision:.3f} ({both} of {together} grouped pairs), "
          f"recall {recall:.3f} ({both} of {same} pairs); {len(listing['groups'])} groups")
    return precision, recall


def cost(binary, work, count, megapixels, rounds):
    originals = [n for n in sorted(os.listdir(PHOTOS)) if n.endswith(".jpg") and not any(
        v in n for v in ("-mirrored", "-on-its-side", "-dark", "-small"))]
    library = os.path.join(work, f"photos-{count}x{megapixels}mp")
    made = library + ".made"
    if not os.path.exists(made):
        shutil.rmtree(library, ignore_errors=True)
        os.makedirs(library)
        width = int((megapixels * 1e6 * 4 / 3) ** 0.5)
        height = width * 3 // 4
        for i in range(count):
            source = Image.open(os.path.join(PHOTOS, originals[i % len(originals)])).convert("RGB")
            scale = max(width / source.width, height / source.height)
            big = source.resize((round(source.width * scale), round(source.height * scale)), Image.BICUBIC)
            left, top = (big.width - width) // 2, 0
            big.crop((left, top, left + width, top + height)).save(os.path.join(library, f"IMG_{i:04d}.jpg"), quality=90)
        open(made, "w").close()
    print(f"cost: {count} photos of {megapixels} MP (from the labelled originals), cold builds, {rounds} rounds interleaved")
    runs = {"off": [], "on": []}
    for _ in range(rounds):
        for mode in ("off", "on"):
            out = os.path.join(work, f"cost-{mode}")
            benchlib.remove_site(out)
            yml = config(os.path.join(work, f"cost-{mode}.yml"), mode == "on")
            run = benchlib.run_timed([binary, "build", library, "-o", out, "--config", yml, "--jobs", "1"])
            runs[mode].append(run)
            print(f"  faces {mode:3s} {run.wall:7.2f} s wall {run.cpu:7.2f} s CPU {run.peak_mb:6.0f} MB", flush=True)
    off = sorted(r.cpu for r in runs["off"])[len(runs["off"]) // 2]
    on = sorted(r.cpu for r in runs["on"])[len(runs["on"]) // 2]
    print(f"CPU per photo (median): faces off {off / count:.2f} s, on {on / count:.2f} s; "
          f"faces add {(on - off) / count:.2f} s a photo, {100 * (on - off) / off:.0f} % of the build's own cost")


def scale(binary, work, count, rounds):
    library = os.path.join(work, f"scale-{count}")
    made = library + ".made"
    if not os.path.exists(made):
        print(f"making {count:,} tiny JPEGs in {library} …", flush=True)
        shutil.rmtree(library, ignore_errors=True)
        make_library(library, count, settings=False)
        open(made, "w").close()
    builds = {}
    for mode in ("off", "on"):
        yml = config(os.path.join(work, f"scale-{mode}.yml"), mode == "on",
                     # The tiny photos fit the small sizes; the 1600x1200 preview is the face photo's, found in as in a real library.
                     "thumbnail_sizes: [32x24]\npreview_sizes: [64x48, 1600x1200]\nformat: jpeg\n")
        out = os.path.join(work, f"scale-site-{mode}")
        benchlib.remove_site(out)
        builds[mode] = [binary, "build", library, "-o", out, "--config", yml]
    listing = min((benchlib.run_timed(["find", library, "-type", "f", "-printf", "%s %T@ %p\\n"]) for _ in range(3)),
                  key=lambda r: r.wall)
    print(f"listing the library (find -printf, best of 3): {listing.wall:.2f} s wall")
    albums = sorted(os.path.join(dp, d) for dp, ds, _ in os.walk(library) for d in ds if "album" in d)
    album = albums[len(albums) // 2]   # as bench_people.py: an album in the middle of the timeline
    added = os.path.join(album, "IMG_FACE.jpg")
    # A real face photo, dated in the album's year (as bench_people.py's added photo is).
    dated = Image.open(os.path.join(PHOTOS, "obama.jpg"))
    exif = Image.Exif()
    exif.get_ifd(0x8769)[0x9003] = f"{os.path.basename(os.path.dirname(album))}:06:01 12:00:00"
    results = {}

    def measure(step, mode):
        run = benchlib.run_timed(builds[mode])
        pages, total = rendered(run)
        results.setdefault((step, mode), []).append(run)
        print(f"{step:8s} faces {mode:3s} {run.wall:7.2f} s wall {run.cpu:7.2f} s CPU {run.peak_mb:6.0f} MB  "
              f"rendered {pages} of {total} pages", flush=True)

    for mode in ("off", "on"):
        measure("cold", mode)
    for _ in range(rounds):
        for mode in ("off", "on"):
            measure("no-op", mode)
        dated.save(added, quality=90, exif=exif.tobytes())
        for mode in ("off", "on"):
            measure("add one", mode)
        os.remove(added)
        for mode in ("off", "on"):
            benchlib.run_timed(builds[mode])

    def best(step, mode):
        return min(results[(step, mode)], key=lambda r: r.wall)

    print()
    print(f"| step ({count:,} items, best of {rounds}) | faces off: wall s, CPU s, peak MB | faces on: wall s, CPU s, peak MB | on / off |")
    print("| --- | --- | --- | --- |")
    for step in ("cold", "no-op", "add one"):
        off, on = best(step, "off"), best(step, "on")
        print(f"| {step} | {off.wall:.2f}, {off.cpu:.2f}, {off.peak_mb:.0f} | {on.wall:.2f}, {on.cpu:.2f}, {on.peak_mb:.0f} | "
              f"{on.wall / off.wall:.2f}x |")
    noop, add = best("no-op", "on"), best("add one", "on")
    peak = max(r.peak_mb for (step, mode), runs in results.items() if mode == "on" and step != "cold" for r in runs)
    print()
    print(f"faces on: no-op / listing {noop.wall / listing.wall:.1f}x; add one / no-op {add.wall / noop.wall:.2f}x; peak {peak:.0f} MB")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=int, default=8)
    parser.add_argument("--megapixels", type=float, default=12)
    parser.add_argument("--scale", type=int, default=0, help="also the library of COUNT tiny photos, faces off and on")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--work", default="/tmp/gallerygen-faces")
    parser.add_argument("--binary", default=None, help="gallerygen to measure (default: a release build of this checkout)")
    args = parser.parse_args()
    for needed, script in ((os.path.join(PHOTOS, "labels.json"), "face-photos.sh"),
                           (os.path.join(MODELS, "dlib_face_recognition_resnet_model_v1.dat"), "face-models.sh")):
        if not os.path.exists(needed):
            raise SystemExit(f"{needed} is missing: run scripts/{script}")
    os.makedirs(args.work, exist_ok=True)
    binary = args.binary or benchlib.build_binary()
    quality(binary, args.work)
    if args.photos:
        cost(binary, args.work, args.photos, args.megapixels, args.rounds)
    if args.scale:
        scale(binary, args.work, args.scale, args.rounds)


if __name__ == "__main__":
    main()
