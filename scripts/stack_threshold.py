#!/usr/bin/env python3
"""How far apart near-duplicates' hashes are, on labelled pairs of real photos.

From each photo of the folders given (real camera photos, all different
scenes), makes what a camera takes a moment later, and measures the looks
(`gallerygen looks`: the perceptual hash the build makes) of:

  same scene   the photo against itself moved (a 1, 2 and 4 % crop
               across), a little lighter (+6 %), turned by 1.5°,
               recompressed at JPEG quality 60, and at half the size;
  other scene  every pair of different photos, and the hard ones: the
               left and right 60 % of one photo (a pan to another part of
               the scene), its top and bottom halves.

Prints, for each distance limit, how many same-scene pairs it stacks and
how many other-scene pairs it would wrongly stack, and the largest limit
that stacks no other-scene pair.

usage: scripts/stack_threshold.py [--binary PATH] FOLDER...   (folders of real camera JPEGs)
"""
import argparse
import itertools
import os
import subprocess
import sys
import tempfile

from PIL import Image, ImageEnhance, ImageOps


def photos(folders):
    for folder in folders:
        for base, _, names in os.walk(folder):
            for name in sorted(names):
                if name.lower().endswith((".jpg", ".jpeg")):
                    path = os.path.join(base, name)
                    try:
                        with Image.open(path) as im:
                            im.load()
                        yield path
                    except Exception:
                        pass


def looks(binary, paths):
    out = subprocess.run([binary, "looks", *paths], check=True, capture_output=True, text=True).stdout
    result = {}
    for line in out.splitlines():
        hash_, sharpness, path = line.split(" ", 2)
        if hash_ != "-":
            result[path] = int(hash_, 16)
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--binary", default=os.path.join(os.path.dirname(__file__), "..", ".build", "release", "gallerygen"))
    a = ap.parse_args()
    sources = list(photos(a.folders))
    if len(sources) < 3:
        sys.exit("need at least three photos of different scenes")
    work = tempfile.mkdtemp(prefix="stack-threshold-")
    same, other = [], []
    originals = []
    for n, path in enumerate(sources):
        im = ImageOps.exif_transpose(Image.open(path)).convert("RGB")
        im.thumbnail((2000, 2000))
        w, h = im.size

        def save(img, tag):
            p = os.path.join(work, f"{n:03d}-{tag}.jpg")
            img.save(p, quality=90)
            return p

        base = save(im, "base")
        originals.append(base)
        for pct in (1, 2, 4):
            dx = w * pct // 100
            same.append((save(im.crop((0, 0, w - dx, h)), f"a{pct}"), save(im.crop((dx, 0, w, h)), f"b{pct}")))
        same.append((base, save(ImageEnhance.Brightness(im).enhance(1.06), "light")))
        same.append((base, save(im.rotate(1.5, resample=Image.BICUBIC).crop((w // 40, h // 40, w - w // 40, h - h // 40)).resize((w, h)), "turned")))
        p = os.path.join(work, f"{n:03d}-q60.jpg")
        im.save(p, quality=60)
        same.append((base, p))
        same.append((base, save(im.resize((w // 2, h // 2), Image.LANCZOS), "half")))
        other.append((save(im.crop((0, 0, w * 6 // 10, h)), "left"), save(im.crop((w * 4 // 10, 0, w, h)), "right")))
        other.append((save(im.crop((0, 0, w, h // 2)), "top"), save(im.crop((0, h // 2, w, h)), "bottom")))
    other += list(itertools.combinations(originals, 2))
    all_paths = sorted({p for pair in same + other for p in pair})
    hashes = looks(os.path.abspath(a.binary), all_paths)

    def distances(pairs):
        return sorted(bin(hashes[x] ^ hashes[y]).count("1") for x, y in pairs if x in hashes and y in hashes)

    s, o = distances(same), distances(other)
    print(f"{len(sources)} photos: {len(s)} same-scene pairs, {len(o)} other-scene pairs")
    print(f"same scene: median {s[len(s) // 2]}, 90th percentile {s[len(s) * 9 // 10]}, max {s[-1]}")
    print(f"other scene: min {o[0]}, 1st percentile {o[len(o) // 100]}, median {o[len(o) // 2]}")
    print()
    print("| limit | same-scene pairs stacked | other-scene pairs stacked |")
    print("| --- | --- | --- |")
    for limit in range(0, 25, 2):
        print(f"| {limit} | {sum(d <= limit for d in s)} of {len(s)} | {sum(d <= limit for d in o)} of {len(o)} |")
    safe = max((limit for limit in range(64) if all(d > limit for d in o)), default=-1)
    print()
    print(f"largest limit that stacks no other-scene pair: {safe}; it stacks {sum(d <= safe for d in s)} of {len(s)} same-scene pairs")


if __name__ == "__main__":
    main()
