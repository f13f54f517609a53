#!/usr/bin/env python3
"""Throughput of gallerygen per camera format, next to the format's own tools.

From the JPEGs of a benchmark library (12 MP camera photos with EXIF) it makes
the same pictures as HEIC (heif-enc, x265), AVIF (heif-enc, aom), 16-bit-free
LZW TIFF (Pillow) and two kinds of DNG (a camera-style DNG carrying the JPEG as
its full-size preview, and a bare Bayer DNG libraw must demosaic), then for
each format:

- gallerygen: a cold build (default sizes, WebP), photos/s, wall, CPU s per
  photo and peak memory;
- the reference: libheif's own `heif-convert` (HEIC/AVIF -> JPEG, the same
  decode, no resizing) over the same files, with as many processes at once as
  gallerygen has jobs, and `tiffcp`/`dcraw_emu` where they apply.

usage: scripts/bench_formats.py JPEG_LIBRARY [--count N] [--binary PATH] [--jobs N]
                                [--work DIR] [--formats heic,avif,tiff,dng,dng-bayer]

The converted files are kept in --work (default /tmp/gallerygen-formats-N) and
reused. Needs Pillow (a virtual environment), heif-enc/heif-convert
(libheif-examples), simple_dcraw/dcraw_emu (libraw-bin) for the libraw reference.
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import run_timed  # noqa: E402  (the one timer both benchmarks use)
import benchlib  # noqa: E402  (what the benchmarks share: a site removed with its build state)


def timed(cmd, **kwargs):
    """(wall s, CPU s, peak RSS MB, output) of cmd, via bench.py's timer."""
    return run_timed(cmd, **kwargs)


def jpegs(library, count):
    found = []
    for d, dirs, files in os.walk(library):
        dirs.sort()
        for f in sorted(files):
            if f.lower().endswith((".jpg", ".jpeg")):
                found.append(os.path.join(d, f))
    return found[:count]


def dng(path, rgb, preview_jpeg, make, model):
    """A DNG: Bayer RGGB 16-bit uncompressed from `rgb` (Pillow image), with
    `preview_jpeg` (bytes) as a full-size preview in a SubIFD when given."""
    w, h = rgb.size
    px = rgb.tobytes()
    cfa = bytearray(w * h * 2)
    # RGGB: row parity picks R/G or G/B; 8-bit values scaled to 16 bits.
    for y in range(h):
        row = px[y * w * 3:(y + 1) * w * 3]
        if y % 2 == 0:
            r = row[0::6]; g = row[4::6]
            vals = bytearray(w); vals[0::2] = r[: (w + 1) // 2]; vals[1::2] = g[: w // 2]
        else:
            g = row[1::6]; b = row[5::6]
            vals = bytearray(w); vals[0::2] = g[: (w + 1) // 2]; vals[1::2] = b[: w // 2]
        cfa[y * w * 2:(y + 1) * w * 2] = struct.pack(f"<{w}H", *[v * 200 for v in vals])
    out = bytearray(b"II*\x00\x00\x00\x00\x00")

    def append(data):
        if len(out) % 2:
            out.append(0)
        off = len(out)
        out.extend(data)
        return off

    def ifd(entries):
        large = {}
        for tag, (typ, count, data) in entries.items():
            if len(data) > 4:
                large[tag] = append(data)
        if len(out) % 2:
            out.append(0)
        off = len(out)
        out.extend(struct.pack("<H", len(entries)))
        for tag in sorted(entries):
            typ, count, data = entries[tag]
            out.extend(struct.pack("<HHI", tag, typ, count))
            out.extend(struct.pack("<I", large[tag]) if tag in large else data.ljust(4, b"\0"))
        out.extend(b"\0\0\0\0")
        return off

    def short(*v): return (3, len(v), struct.pack(f"<{len(v)}H", *v))
    def long(*v): return (4, len(v), struct.pack(f"<{len(v)}I", *v))
    def ascii(s): b = s.encode() + b"\0"; return (2, len(b), b)
    def byte(*v): return (1, len(v), bytes(v))
    def srat(*v): return (10, len(v), b"".join(struct.pack("<ii", n, 10000) for n in v))

    strip = append(bytes(cfa))
    sub = []
    if preview_jpeg:
        jpeg_at = append(preview_jpeg)
        sub.append(ifd({254: long(1), 256: long(w), 257: long(h), 258: short(8, 8, 8), 259: short(7), 262: short(6),
                        273: long(jpeg_at), 277: short(3), 278: long(h), 279: long(len(preview_jpeg))}))
    tags = {254: long(0), 256: long(w), 257: long(h), 258: short(16), 259: short(1), 262: short(32803),
            271: ascii(make), 272: ascii(model), 273: long(strip), 274: short(1), 277: short(1), 278: long(h),
            279: long(len(cfa)), 284: short(1), 33421: short(2, 2), 33422: byte(0, 1, 1, 2), 50706: byte(1, 4, 0, 0),
            50708: ascii(f"{make} {model}"), 50717: long(65535),
            50721: srat(3240, -1580, -500, -970, 18760, 420, 550, -2040, 10570), 50778: short(21)}
    if sub:
        tags[330] = long(*sub)
    first = ifd(tags)
    out[4:8] = struct.pack("<I", first)
    with open(path, "wb") as f:
        f.write(out)


def prepare(fmt, sources, folder):
    from PIL import Image, ImageOps
    os.makedirs(folder, exist_ok=True)
    def one(src):
        stem = os.path.splitext(os.path.basename(src))[0]
        if fmt in ("heic", "avif"):
            target = os.path.join(folder, stem + "." + fmt)
            if not os.path.exists(target):
                extra = ["-A", "-p", "speed=8"] if fmt == "avif" else []
                subprocess.run(["heif-enc", "-q", "55", *extra, "-o", target, src], check=True, capture_output=True)
        elif fmt == "tiff":
            target = os.path.join(folder, stem + ".tif")
            if not os.path.exists(target):
                with Image.open(src) as im:
                    ImageOps.exif_transpose(im).convert("RGB").save(target, compression="tiff_lzw")
        else:
            target = os.path.join(folder, stem + ".dng")
            if not os.path.exists(target):
                with Image.open(src) as im:
                    upright = ImageOps.exif_transpose(im).convert("RGB")
                    preview = open(src, "rb").read() if fmt == "dng" else None
                    if preview is not None and upright.size != im.size:
                        return  # keep the preview's shape equal to the sensor's
                    dng(target, upright, preview, "Fixture", "Bayer One")
        return target
    with ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
        return [t for t in pool.map(one, sources) if t]


def row(name, n, wall, cpu, rss):
    return f"| {name} | {n} | {n / wall:.2f} | {wall:.2f} | {cpu / n:.3f} | {rss:.0f} |"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("library")
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "gallerygen"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--work")
    ap.add_argument("--formats", default="heic,avif,tiff,dng,dng-bayer")
    args = ap.parse_args()
    work = args.work or f"/tmp/gallerygen-formats-{args.count}"
    sources = jpegs(args.library, args.count)
    if not sources:
        sys.exit("no JPEGs in " + args.library)
    print(f"{len(sources)} photos from {args.library}, {os.cpu_count()} cores, --jobs {args.jobs}\n")
    print("| what | photos | photos/s | wall s | CPU s per photo | peak MB |")
    print("| --- | --- | --- | --- | --- | --- |")
    for fmt in args.formats.split(","):
        files = prepare(fmt, sources, os.path.join(work, fmt))
        source = os.path.join(work, fmt)
        out = tempfile.mkdtemp(prefix="gg-formats-")
        wall, cpu, rss, text = timed([args.binary, "build", source, "-o", out, "--quiet", "--jobs", str(args.jobs)])
        benchlib.remove_site(out)
        if "skipped" in text:
            print(text, file=sys.stderr)
        print(row(f"gallerygen {fmt}", len(files), wall, cpu, rss))
        scratch = tempfile.mkdtemp(prefix="gg-ref-")
        if fmt in ("heic", "avif") and shutil.which("heif-convert"):
            script = f'heif-convert -q 85 "$1" {scratch}/"$(basename "$1")".jpg >/dev/null'
            wall, cpu, rss, _ = timed(["xargs", "-P", str(args.jobs), "-n", "1", "sh", "-c", script, "_"], input="\n".join(files))
            print(row(f"heif-convert {fmt} -> JPEG (full size)", len(files), wall, cpu, rss))
        if fmt.startswith("dng") and shutil.which("simple_dcraw"):
            # libraw's own samples: simple_dcraw -e writes the embedded preview,
            # dcraw_emu -h develops at half size (to a PPM on stdout, discarded).
            tool = "simple_dcraw -e" if fmt == "dng" else "dcraw_emu -h -Z -"
            script = f'ln -s "$1" {scratch}/ && {tool} {scratch}/"$(basename "$1")" >/dev/null'
            wall, cpu, rss, _ = timed(["xargs", "-P", str(args.jobs), "-n", "1", "sh", "-c", script, "_"], input="\n".join(files))
            what = "libraw simple_dcraw -e (extract preview)" if fmt == "dng" else "libraw dcraw_emu -h (half-size develop)"
            print(row(what, len(files), wall, cpu, rss))
        shutil.rmtree(scratch)


if __name__ == "__main__":
    main()
