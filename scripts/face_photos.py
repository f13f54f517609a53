#!/usr/bin/env python3
"""Writes the labelled face set from the public-domain originals
scripts/face-photos.sh fetched: usage: face_photos.py ORIGINALS DEST.

Each original is published as it is and in four variants a phone library
has too (mirrored, stored on its side with an EXIF orientation that turns
it back, darker, smaller), and pairs of originals are set side by side as
two-person photos. labels.json lists, for every photo, the people in it and
where their faces are in the upright picture (normalised x, y, width,
height: the originals' faces were found by dlib's HOG detector and checked
by eye; a variant's are the same faces moved with its pixels)."""
import json
import sys
from pathlib import Path

from PIL import Image, ImageEnhance

# name: (file, person, face box in the upright original)
ORIGINALS = {
    "obama": ("obama.jpg", "Barack Obama", (0.402, 0.120, 0.285, 0.228)),
    "obama-congress": ("obama2.jpg", "Barack Obama", (0.262, 0.252, 0.497, 0.258)),
    "obama-blue-room": ("obama3.jpg", "Barack Obama", (0.450, 0.129, 0.216, 0.133)),
    "biden-blue-room": ("biden.jpg", "Joe Biden", (0.453, 0.106, 0.321, 0.141)),
    "collins": ("astronaut.png", "Eileen Collins", (0.350, 0.162, 0.172, 0.172)),
}
PAIRS = [("obama", "collins"), ("biden-blue-room", "obama-congress"), ("collins", "biden-blue-room")]


def save(image, path, orientation=1):
    exif = Image.Exif()
    if orientation != 1:
        exif[0x0112] = orientation
    image.convert("RGB").save(path, "JPEG", quality=90, exif=exif.tobytes())


def main():
    originals, dest = Path(sys.argv[1]), Path(sys.argv[2])
    dest.mkdir(parents=True, exist_ok=True)
    labels = {}
    loaded = {}
    for key, (file, person, box) in ORIGINALS.items():
        image = Image.open(originals / file).convert("RGB")
        image.thumbnail((2000, 2000), Image.LANCZOS)
        loaded[key] = image
        x, y, w, h = box
        face = lambda b: [{"name": person, "box": [round(v, 4) for v in b]}]
        save(image, dest / f"{key}.jpg")
        labels[f"{key}.jpg"] = face(box)
        save(image.transpose(Image.FLIP_LEFT_RIGHT), dest / f"{key}-mirrored.jpg")
        labels[f"{key}-mirrored.jpg"] = face((1 - x - w, y, w, h))
        # Stored turned a quarter anticlockwise; orientation 6 turns it back.
        save(image.transpose(Image.ROTATE_90), dest / f"{key}-on-its-side.jpg", orientation=6)
        labels[f"{key}-on-its-side.jpg"] = face(box)
        darker = ImageEnhance.Contrast(ImageEnhance.Brightness(image).enhance(0.55)).enhance(0.8)
        save(darker, dest / f"{key}-dark.jpg")
        labels[f"{key}-dark.jpg"] = face(box)
        small = image.copy()
        small.thumbnail((800, 800), Image.LANCZOS)
        save(small, dest / f"{key}-small.jpg")
        labels[f"{key}-small.jpg"] = face(box)
    for left, right in PAIRS:
        a, b = loaded[left], loaded[right]
        height = min(a.height, b.height, 1200)
        a = a.resize((round(a.width * height / a.height), height), Image.LANCZOS)
        b = b.resize((round(b.width * height / b.height), height), Image.LANCZOS)
        pair = Image.new("RGB", (a.width + b.width, height), "white")
        pair.paste(a, (0, 0))
        pair.paste(b, (a.width, 0))
        name = f"{left}-with-{right}.jpg"
        save(pair, dest / name)
        faces = []
        for image, key, offset in ((a, left, 0), (b, right, a.width)):
            _, person, (x, y, w, h) = ORIGINALS[key]
            faces.append({"name": person, "box": [round((offset + x * image.width) / pair.width, 4), y,
                                                  round(w * image.width / pair.width, 4), h]})
        labels[name] = faces
    (dest / "labels.json").write_text(json.dumps({"photos": labels}, indent=1, sort_keys=True) + "\n")
    people = sorted({f["name"] for faces in labels.values() for f in faces})
    print(f"{len(labels)} labelled photos of {len(people)} people in {dest}", file=sys.stderr)


if __name__ == "__main__":
    main()
