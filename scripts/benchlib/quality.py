"""Bytes against quality for rendition encodings (`bench_formats.py --renditions`).

`gallerygen encode-probe` makes every default rendition of each photo in each
encoding, as a build makes them, and writes the picture before encoding (PPM)
beside them; this scores each rendition against it with SSIMULACRA2 (PyPI
`ssimulacra2`; 90 is visually lossless, 70 high quality, 50 medium) and sums
bytes and encode CPU per photo.
"""
import csv
import io
import os
import statistics
import subprocess
from concurrent.futures import ProcessPoolExecutor

# Scored sizes: the grid's 2x thumbnail and the laptop preview (the two a
# visitor's phone and laptop load most); every size counts for bytes.
SCORED_WIDTHS = (560, 1600)


def _score(pair):
    from ssimulacra2 import compute_ssimulacra2
    reference, distorted = pair
    if distorted.endswith(".avif") or distorted.endswith(".webp"):
        # The package reads through Pillow; decode to PNG first so both formats go one way.
        from PIL import Image
        png = distorted + ".png"
        if not os.path.exists(png):
            Image.open(distorted).convert("RGB").save(png + ".part", format="PNG")
            os.replace(png + ".part", png)
        distorted = png
    return compute_ssimulacra2(reference, distorted)


def probe(binary, photos, encodings, folder, repeats=1):
    """Rows of the probe: (photo, encoding, WxH, bytes, encode seconds)."""
    os.makedirs(folder, exist_ok=True)
    out = subprocess.run([binary, "encode-probe", "--encodings", ",".join(encodings), "--out", folder,
                          "--repeats", str(repeats), *photos], check=True, capture_output=True, text=True).stdout
    rows = [r for r in csv.DictReader(io.StringIO(out), delimiter="\t") if r["bytes"] != "-"]
    return rows


def table(binary, photos, encodings, folder, jobs, repeats=1):
    """Per encoding: bytes per photo, CPU per photo and mean SSIMULACRA2 at each scored width."""
    rows = probe(binary, photos, encodings, folder, repeats)
    pairs = {}
    for r in rows:
        box = [int(v) for v in r["box"].split("x")]
        size = [int(v) for v in r["size"].split("x")]
        # Scored only where the photo fills the box (a small photo's rendition is not that size's).
        if box[0] in SCORED_WIDTHS and (size[0] == box[0] or size[1] == box[1]):
            stem = os.path.splitext(os.path.basename(r["file"]))[0]
            ext = "jpg" if r["encoding"].startswith("jpeg") else r["encoding"].split(":")[0]
            name = f"{stem}-{r['size']}-{r['encoding'].replace(':', '-')}.{ext}"
            pairs[(r["file"], r["encoding"], r["box"])] = (os.path.join(folder, f"{stem}-{r['size']}.ppm"), os.path.join(folder, name))
    keys = list(pairs)
    with ProcessPoolExecutor(jobs) as pool:
        scores = dict(zip(keys, pool.map(_score, [pairs[k] for k in keys])))
    result = []
    for encoding in encodings:
        mine = [r for r in rows if r["encoding"] == encoding]
        files = sorted({r["file"] for r in mine})
        per_photo_bytes = [sum(int(r["bytes"]) for r in mine if r["file"] == f) for f in files]
        per_photo_cpu = [float(next(r["encode_seconds"] for r in mine if r["file"] == f)) for f in files]
        by_width = {}
        for (f, e, box), score in scores.items():
            if e == encoding:
                by_width.setdefault(int(box.split("x")[0]), []).append(score)
        result.append({
            "encoding": encoding,
            "photos": len(files),
            "sizes": len({r["box"] for r in mine}),
            "bytes": statistics.mean(per_photo_bytes),
            "cpu": statistics.mean(per_photo_cpu),
            "scores": {w: statistics.mean(v) for w, v in sorted(by_width.items())},
        })
    return result


def print_table(result, baseline):
    base = next(r for r in result if r["encoding"] == baseline)
    widths = sorted(base["scores"])
    head = " | ".join(f"SSIMULACRA2 {w}" for w in widths)
    print(f"| encoding | photos | KB per photo ({base['sizes']} sizes) | vs {baseline} | {head} | encode CPU s per photo | vs {baseline} |")
    print("| --- | --- | --- | --- | " + " | ".join("---" for _ in widths) + " | --- | --- |")
    for r in result:
        scores = " | ".join(f"{r['scores'].get(w, float('nan')):.1f}" for w in widths)
        print(f"| {r['encoding']} | {r['photos']} | {r['bytes'] / 1024:.0f} | {r['bytes'] / base['bytes'] - 1:+.0%} | {scores} | "
              f"{r['cpu']:.3f} | {r['cpu'] / base['cpu']:.2f}× |")
