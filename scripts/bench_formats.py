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

usage: scripts/bench_formats.py [JPEG_LIBRARY] [--count N] [--binary PATH] [--jobs N]
                                [--work DIR] [--formats heic,avif,tiff,dng,dng-bayer]
       scripts/bench_formats.py --renditions [JPEG_LIBRARY] [--encodings webp:85,avif:60:8,…]

--renditions measures the output side instead: every default rendition of each
photo in each encoding (`gallerygen encode-probe`, as a build makes them), its
bytes, the CPU the encoder adds per photo, and SSIMULACRA2 (PyPI) against the
picture before encoding at the 560 px thumbnail and the 1600 px preview
(benchlib/quality.py). Needs `ssimulacra2` and Pillow with AVIF in the
virtual environment.

Without JPEG_LIBRARY it makes one (benchlib.make_photo_library) in
/tmp/gallerygen-photos-N. The converted files are kept in --work (default /tmp/gallerygen-formats-N) and
reused. Needs Pillow (a virtual environment), heif-enc/heif-convert
(libheif-examples), simple_dcraw/dcraw_emu (libraw-bin) for the libraw reference.
"""
import argparse
import os
import shutil
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402  (what the benchmarks share: the timer, the peers, the libraries)
from benchlib import run_timed  # noqa: E402


# Ours first (the baseline), then AVIF through aom at several speeds and qualities.
DEFAULT_ENCODINGS = ["webp:85", "webp:75", "webp:90"] + [f"avif:{q}:8" for q in (60, 65, 70, 75, 80, 85)] + \
    [f"avif:{q}:{s}" for s in (6, 9, 10) for q in (75, 80)]


def row(name, n, run):
    return f"| {name} | {n} | {n / run.wall:.2f} | {run.wall:.2f} | {run.cpu / n:.3f} | {run.peak_mb:.0f} |"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("library", nargs="?")
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--binary", help="default: a release build of this checkout")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--work")
    ap.add_argument("--formats", default="heic,avif,tiff,dng,dng-bayer")
    ap.add_argument("--renditions", action="store_true", help="bytes against SSIMULACRA2 per encoding (see above)")
    ap.add_argument("--encodings", default=",".join(DEFAULT_ENCODINGS))
    ap.add_argument("--repeats", type=int, default=1, help="--renditions: times each encoding is made, the fastest kept")
    args = ap.parse_args()
    args.binary = args.binary or benchlib.build_binary()
    work = args.work or f"/tmp/gallerygen-formats-{args.count}"
    if not args.library:
        args.library = f"/tmp/gallerygen-photos-{args.count}"
        if not os.path.isdir(args.library):
            print(f"Making a {args.count}-photo library in {args.library} …", flush=True)
            benchlib.make_photo_library(args.library, args.count)
    # The truncated files of a library are not a format's cost.
    sources = benchlib.jpegs_in(args.library, args.count, complete=True)
    if not sources:
        sys.exit("no JPEGs in " + args.library)
    print(f"{len(sources)} photos from {args.library}, {os.cpu_count()} cores, --jobs {args.jobs}\n")
    if args.renditions:
        from benchlib import quality
        encodings = args.encodings.split(",")
        result = quality.table(args.binary, sources, encodings, work + "-renditions", args.jobs, args.repeats)
        quality.print_table(result, encodings[0])
        return
    print("| what | photos | photos/s | wall s | CPU s per photo | peak MB |")
    print("| --- | --- | --- | --- | --- | --- |")
    for fmt in args.formats.split(","):
        files = benchlib.convert_photos(fmt, sources, os.path.join(work, fmt))
        source = os.path.join(work, fmt)
        out = tempfile.mkdtemp(prefix="gg-formats-")
        run = run_timed([args.binary, "build", source, "-o", out, "--quiet", "--jobs", str(args.jobs)])
        benchlib.remove_site(out)
        if "skipped" in run.output:
            print(run.output, file=sys.stderr)
        print(row(f"gallerygen {fmt}", len(files), run))
        scratch = tempfile.mkdtemp(prefix="gg-ref-")
        if fmt in ("heic", "avif") and benchlib.peers.find("heif-convert"):
            script = f'heif-convert -q 85 "$1" {scratch}/"$(basename "$1")".jpg >/dev/null'
            run = run_timed(["xargs", "-P", str(args.jobs), "-n", "1", "sh", "-c", script, "_"], input="\n".join(files))
            print(row(f"heif-convert {fmt} -> JPEG (full size)", len(files), run))
        if fmt.startswith("dng") and benchlib.peers.find("simple_dcraw"):
            # libraw's own samples: simple_dcraw -e writes the embedded preview,
            # dcraw_emu -h develops at half size (to a PPM on stdout, discarded).
            tool = "simple_dcraw -e" if fmt == "dng" else "dcraw_emu -h -Z -"
            script = f'ln -s "$1" {scratch}/ && {tool} {scratch}/"$(basename "$1")" >/dev/null'
            run = run_timed(["xargs", "-P", str(args.jobs), "-n", "1", "sh", "-c", script, "_"], input="\n".join(files))
            what = "libraw simple_dcraw -e (extract preview)" if fmt == "dng" else "libraw dcraw_emu -h (half-size develop)"
            print(row(what, len(files), run))
        shutil.rmtree(scratch)


if __name__ == "__main__":
    main()
