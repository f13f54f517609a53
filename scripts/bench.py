#!/usr/bin/env python3
"""gallerygen benchmark: cold build, no-op rebuild and add-10-photos rebuild,
with photos/s, wall and CPU time and peak memory; the codec floor; and, when
sigal is installed, sigal on the same library at the same sizes.

usage: scripts/bench.py [LIBRARY] [--count N] [--formats webp,jpeg] [--jobs N]
                        [--preview 1600x1200] [--thumbnail 280x210] [--no-sigal]

Without LIBRARY it builds one with ../shared/bench/make_corpus.py (needs
Pillow and piexif) in /tmp/gallerygen-bench-N and reuses it next time.
Nothing in LIBRARY is changed: the add-10 step adds a folder and removes it.
"""
import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
MAKE_CORPUS = os.path.join(ROOT, "..", "shared", "bench", "make_corpus.py")
PHOTO_EXT = (".jpg", ".jpeg", ".png", ".gif", ".webp")


def run_timed(cmd, cwd=None):
    """Runs cmd under /usr/bin/time; returns (wall s, cpu s, peak RSS MB, stdout+stderr)."""
    fmt = "__TIME__ %e %U %S %M"
    proc = subprocess.run(["/usr/bin/time", "-f", fmt] + cmd, cwd=cwd, capture_output=True, text=True)
    out = proc.stdout + proc.stderr
    match = re.search(r"__TIME__ ([\d.]+) ([\d.]+) ([\d.]+) (\d+)", out)
    if proc.returncode != 0 or not match:
        sys.exit(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{out[-2000:]}")
    wall, user, system, rss = match.groups()
    return float(wall), float(user) + float(system), int(rss) / 1024, out


def count_photos(folder):
    n = 0
    for _, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        n += sum(1 for f in files if f.lower().endswith(PHOTO_EXT) and not f.startswith("."))
    return n


def folder_bytes(folder, exts):
    total = 0
    for d, _, files in os.walk(folder):
        total += sum(os.path.getsize(os.path.join(d, f)) for f in files if f.lower().endswith(exts))
    return total


def make_library(path, count, seed=1):
    if not os.path.exists(MAKE_CORPUS):
        sys.exit("no ../shared/bench/make_corpus.py: pass a LIBRARY folder")
    subprocess.run([sys.executable, MAKE_CORPUS, path, "--count", str(count), "--seed", str(seed)], check=True,
                   stdout=subprocess.DEVNULL)


def row(name, photos, wall, cpu, rss):
    rate = photos / wall if wall > 0 else float("inf")
    return f"| {name} | {photos} | {rate:.1f} | {wall:.2f} | {cpu:.2f} | {cpu / wall if wall else 0:.2f} | {rss:.0f} |"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("library", nargs="?")
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--formats", default="jpeg,webp")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--preview", default="1600x1200")
    ap.add_argument("--thumbnail", default="280x210")
    ap.add_argument("--no-sigal", action="store_true")
    a = ap.parse_args()

    subprocess.run(["swift", "build", "-c", "release", "--product", "gallerygen"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    binary = os.path.join(subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT,
                                         capture_output=True, text=True, check=True).stdout.strip(), "gallerygen")
    library = a.library or f"/tmp/gallerygen-bench-{a.count}"
    if not a.library and not os.path.isdir(library):
        print(f"Making a {a.count}-photo library in {library} …", flush=True)
        make_library(library, a.count)
    photos = count_photos(library)
    work = tempfile.mkdtemp(prefix="gallerygen-bench-out-")
    sizes = ["--preview-size", a.preview, "--thumbnail-size", a.thumbnail]
    pw, ph = (int(x) for x in a.preview.split("x"))
    tw, th = (int(x) for x in a.thumbnail.split("x"))
    sigal = None if a.no_sigal else shutil.which("sigal")

    print(f"\ngallerygen benchmark, {time.strftime('%Y-%m-%d')}, {platform.node()}: {os.cpu_count()} cores, "
          f"{platform.processor() or platform.machine()}; library {library} ({photos} files); "
          f"previews {a.preview}, thumbnails {a.thumbnail}, --jobs {a.jobs}\n")
    print("| run | photos | photos/s | wall s | CPU s | CPU/wall | peak RSS MB |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    summary = []
    for fmt in a.formats.split(","):
        out = os.path.join(work, f"site-{fmt}")
        base = [binary, "build", library, "--output", out, "--format", fmt, "--jobs", str(a.jobs), "--quiet"] + sizes
        cold = run_timed(base)
        print(row(f"gallerygen {fmt}, cold", photos, *cold[:3]), flush=True)
        noop = run_timed(base)
        print(row(f"gallerygen {fmt}, no-op rebuild", photos, *noop[:3]), flush=True)
        added_src = os.path.join(work, f"added-src-{fmt}")
        make_library(added_src, 10, seed=4242) if os.path.exists(MAKE_CORPUS) else None
        added = os.path.join(library, f"_bench_added_{os.getpid()}")
        try:
            if os.path.isdir(added_src):
                shutil.copytree(added_src, added)
            add = run_timed(base)
            print(row(f"gallerygen {fmt}, add 10 photos", 10, *add[:3]), flush=True)
        finally:
            shutil.rmtree(added, ignore_errors=True)
            shutil.rmtree(added_src, ignore_errors=True)
        floor = subprocess.run([binary, "codec-floor", library, "--format", fmt] + sizes, capture_output=True, text=True, check=True)
        m = re.search(r"photos (\d+) decode_cpu_s ([\d.]+) encode_cpu_s ([\d.]+)", floor.stdout)
        floor_cpu = float(m.group(2)) + float(m.group(3))
        media = folder_bytes(os.path.join(out, "media"), (".webp", ".jpg"))
        summary.append((fmt, cold, floor_cpu, int(m.group(1)), float(m.group(2)), float(m.group(3)), media))
        if sigal:
            sdir = os.path.join(work, f"sigal-{fmt}")
            os.makedirs(sdir)
            with open(os.path.join(sdir, "sigal.conf.py"), "w") as f:
                f.write(f"source = {library!r}\ndestination = {os.path.join(sdir, 'out')!r}\n"
                        f"img_size = ({pw}, {ph})\nthumb_size = ({tw}, {th})\n"
                        + ("img_format = 'WEBP'\n" if fmt == "webp" else ""))
            s = run_timed(["sigal", "build", "-c", "sigal.conf.py", "-n", str(a.jobs)], cwd=sdir)
            print(row(f"sigal {fmt}, cold", photos, *s[:3]), flush=True)
            sbytes = folder_bytes(os.path.join(sdir, "out"), (".webp", ".jpg", ".jpeg"))
            summary[-1] += (s, sbytes)

    print()
    for item in summary:
        fmt, cold, floor_cpu, n, dec, enc, media = item[:7]
        print(f"{fmt}: codec floor {floor_cpu:.1f} CPU s for {n} JPEGs (decode {dec:.1f} s at the chosen DCT scale, "
              f"encode {enc:.1f} s); gallerygen cold build {cold[1]:.1f} CPU s = {cold[1] / floor_cpu:.2f}× the floor; "
              f"renditions {media / 1e6:.1f} MB")
        if len(item) > 7:
            s, sbytes = item[7], item[8]
            print(f"{fmt}: vs sigal: {s[0] / cold[0]:.2f}× sigal's photos/s (wall {cold[0]:.1f} s vs {s[0]:.1f} s), "
                  f"{s[1] / cold[1]:.2f}× less CPU, output {media / 1e6:.1f} MB vs sigal's {sbytes / 1e6:.1f} MB "
                  f"({media / sbytes:.2f}×), peak RSS {cold[2]:.0f} MB vs {s[2]:.0f} MB")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
