#!/usr/bin/env python3
"""gallerygen benchmark.

For each format: a cold build, a no-op rebuild and an add-10-photos rebuild of
the whole library, with photos/s, wall and CPU time and peak memory; the codec
floor (libjpeg-turbo decoding every JPEG the way the build does, plus the
encoder, measured in one thread) and the build's ratio to it. When sigal is
installed, both tools then build the library's JPEGs (a hard-linked copy
without the animations and PNGs, which sigal copies or handles differently) at
the same sizes and quality (and, when Debian's libvips-tools is installed,
vipsthumbnail makes the same previews and thumbnails), and the script prints the speed ratio, the bytes of
both outputs and the PSNR of previews against a full-resolution reference.

usage: scripts/bench.py [LIBRARY] [--count N] [--formats jpeg,webp] [--jobs N] [--binary PATH] [--photo-size WxH]
                        [--preview 1600x1200] [--thumbnail 280x210]
                        [--quality-sample N] [--no-sigal] [--no-floor] [--heic N]
                        [--rounds N] [--instructions]

This machine's speed drifts by 10-15 % from one half-minute to the next (a
shared VM), so a ratio of two single runs taken a minute apart swings as much:
the floor and the JPEGs-only build are measured --rounds times, alternately,
and the median of the paired ratios (with its range) is reported; the same for
the HEIC build and heif-convert. With --instructions the JPEGs-only build
also runs once under valgrind's callgrind (one job, minutes): its instruction
count against that of the codec calls inside it (libjpeg's decode, the
encoder) is the same on every run, where CPU time is not.

With --heic N (and libheif-examples installed), the first N JPEGs are also
encoded as HEIC (heif-enc, cached in /tmp/gallerygen-bench-heic-N) and the
HEIC build is set against libheif's own heif-convert (decode plus one
full-size JPEG per file, as many at once as --jobs) and vipsthumbnail, with
the previews' PSNR against a lossless full-size decode.

Without LIBRARY it makes one (benchlib.make_photo_library: 12 MP photos with
camera EXIF, made in-repo) in /tmp/gallerygen-photos-N and reuses it next
time. Needs Pillow; sigal is optional. `scripts/deps.sh bench` installs both
in .build/venv (run the benchmarks with .build/venv/bin/python) with the
Debian peers. LIBRARY is not changed: the add-10 step adds a folder and
removes it.
"""
import argparse
import html as html_module
import math
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # benchlib, also when imported from the tests
import benchlib  # noqa: E402  (what the benchmarks share: the timer, the peers, the libraries)
from benchlib import median_pair, run_timed, spread, table_row as row  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
PHOTO_EXT = (".jpg", ".jpeg", ".png", ".gif", ".webp")
JPEG_EXT = (".jpg", ".jpeg")
QUALITY = 85  # both tools: sigal's default jpg_options quality, gallerygen's default


def instruction_ratio(binary, mirror, fmt, sizes, work):
    """The JPEGs-only build of mirror under callgrind, one job: (its
    instructions, those inside libjpeg's decode calls, those inside the
    encoder's calls, inside the resampling kernels, inside the page step),
    or None without valgrind. A count, not a time: what
    one change saves shows where this VM's drift hides it."""
    valgrind, strip, annotate = shutil.which("valgrind"), shutil.which("strip"), shutil.which("callgrind_annotate")
    if not (valgrind and strip and annotate):
        print(f"({fmt}: no valgrind, no instruction count)", flush=True)
        return None
    # valgrind cannot read the debug information of the linked-in Swift
    # runtime: a copy without it (the symbols stay).
    plain = os.path.join(work, "gallerygen-for-callgrind")
    subprocess.run([strip, "-g", "-o", plain, binary], check=True)
    profile = os.path.join(work, f"callgrind-{fmt}.out")
    subprocess.run([valgrind, "--tool=callgrind", f"--callgrind-out-file={profile}", plain, "build", mirror,
                    "--output", os.path.join(work, f"callgrind-site-{fmt}"), "--format", fmt, "--quality", str(QUALITY),
                    "--jobs", "1", "--quiet"] + sizes, check=True, capture_output=True)
    text = subprocess.run([annotate, "--inclusive=yes", "--threshold=100", profile], capture_output=True, text=True,
                          check=True).stdout

    def counts(symbol):
        # "  8,428,610,429 (58.81%)  ???:gg_jpeg_planar_read [/path]": the
        # inclusive count of every function whose name matches `symbol`.
        return [int(m.group(1).replace(",", "")) for m in re.finditer(r"^\s*([\d,]+) \([^)]*\)\s+" + symbol, text, re.M)]

    def inclusive(name):
        return sum(counts(r"\S*:" + name + r" \["))
    total = sum(counts("PROGRAM TOTALS"))
    decode = sum(inclusive(f) for f in ("gg_jpeg_planar_open", "gg_jpeg_planar_read", "gg_jpeg_planar_finish"))
    resampling = inclusive("gg_resample_vertical8") + inclusive("gg_resample_horizontal8")
    # The page step's run(_:) and its async pieces (mangled names, each
    # with its inclusive count): the largest holds the others.
    pages = max(counts(r"\S*:\S*GalleryKit15RenderPagesStepV3run\S* \["), default=0)
    encode = inclusive("gg_jpeg_encode_planar") if fmt == "jpeg" else inclusive("WebPEncode")
    if not total or decode == 0 or encode == 0:
        print(f"({fmt}: callgrind's profile names no codec call, no instruction count)", flush=True)
        return None
    return total, decode, encode, resampling, pages


def walk_files(folder, exts):
    for d, dirs, files in os.walk(folder):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        for f in sorted(files):
            if f.lower().endswith(exts) and not f.startswith("."):
                yield os.path.join(d, f)


def folder_bytes(folder, exts):
    return sum(os.path.getsize(p) for p in walk_files(folder, exts))


def jpeg_mirror(library, target):
    """A hard-linked copy of the library's JPEGs (same folders and names)."""
    for path in walk_files(library, JPEG_EXT):
        dest = os.path.join(target, os.path.relpath(path, library))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        try:
            os.link(path, dest)
        except OSError:
            shutil.copy2(path, dest)


def psnr(image, reference):
    """PSNR over R, G and B, with Pillow only."""
    from PIL import ImageChops, ImageStat
    rms = ImageStat.Stat(ImageChops.difference(image, reference)).rms
    mse = sum(v * v for v in rms) / len(rms)
    return 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)


def gallerygen_previews(site):
    """Photo name -> preview file, read from the photo pages."""
    found = {}
    for d, _, files in os.walk(os.path.join(site, "albums")):
        for f in files:
            if not f.endswith(".html"):
                continue
            html = open(os.path.join(d, f), encoding="utf-8").read()
            # The photo page's main image (album pages show thumbnails), named
            # by the page's title: the file name for these untitled photos
            # (alt texts describe the photo, never its file name).
            m = re.search(r'<img src="([^"]+\.(?:jpg|webp))"[^>]*fetchpriority="high"', html)
            t = re.search(r'<h1 class="photo-title">([^<]+)</h1>', html)
            if m and t:
                found[html_module.unescape(t.group(1))] = os.path.normpath(os.path.join(d, m.group(1)))
    return found


def sigal_previews(out):
    found = {}
    for d, _, files in os.walk(out):
        if os.path.basename(d) == "thumbnails":
            continue
        for f in files:
            stem, ext = os.path.splitext(f)
            if ext.lower() in (".jpg", ".jpeg", ".webp"):
                found[stem] = os.path.join(d, f)
    return found


def preview_quality(library, ours, theirs, sample):
    """Mean and minimum PSNR of each tool's previews of the same photos against
    Pillow's Lanczos resize of the full-size, upright original."""
    from PIL import Image, ImageOps
    sources = {os.path.basename(p): p for p in walk_files(library, JPEG_EXT)}
    names = sorted(n for n in sources if n in ours and os.path.splitext(n)[0] in theirs)
    names = names[:: max(1, len(names) // sample)][:sample]
    scores = {"gallerygen": [], "sigal": []}
    for name in names:
        with Image.open(sources[name]) as original:
            upright = ImageOps.exif_transpose(original).convert("RGB")
        for tool, path in (("gallerygen", ours[name]), ("sigal", theirs[os.path.splitext(name)[0]])):
            with Image.open(path) as made:
                image = made.convert("RGB")
            scores[tool].append((psnr(image, upright.resize(image.size, Image.LANCZOS)), os.path.getsize(path)))
    return scores


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("library", nargs="?")
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--formats", default="jpeg,webp")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--preview", default="1600x1200")
    ap.add_argument("--thumbnail", default="280x210")
    ap.add_argument("--quality-sample", type=int, default=24, help="previews compared for PSNR (default 24)")
    ap.add_argument("--no-sigal", action="store_true")
    ap.add_argument("--no-floor", action="store_true")
    ap.add_argument("--heic", type=int, default=0, help="also benchmark N photos as HEIC (default 0)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="floor and build (and heif-convert and the HEIC build) alternated N times; "
                         "the median of the paired ratios is reported (default 3)")
    ap.add_argument("--binary", help="default: a release build of this checkout (as scripts/install.sh makes it)")
    ap.add_argument("--photo-size", default="4032x3024", help="the made library's photos (default 4032x3024)")
    ap.add_argument("--instructions", action="store_true",
                    help="also count the JPEGs-only build's instructions under callgrind against its codec calls'")
    a = ap.parse_args()

    # The binary scripts/install.sh installs: the Swift runtime linked in.
    binary = a.binary or benchlib.build_binary()
    width, height = (int(x) for x in a.photo_size.split("x"))
    library = a.library or f"/tmp/gallerygen-photos-{a.count}" + ("" if a.photo_size == "4032x3024" else f"-{a.photo_size}")
    if not a.library and not os.path.isdir(library):
        print(f"Making a {a.count}-photo library in {library} …", flush=True)
        benchlib.make_photo_library(library, a.count, width=width, height=height)
    photos = sum(1 for _ in walk_files(library, PHOTO_EXT))
    work = tempfile.mkdtemp(prefix="gallerygen-bench-out-")
    sizes = ["--preview-size", a.preview, "--thumbnail-size", a.thumbnail]
    pw, ph = (int(x) for x in a.preview.split("x"))
    tw, th = (int(x) for x in a.thumbnail.split("x"))
    sigal = None if a.no_sigal else benchlib.peers.find("sigal")
    vips = benchlib.peers.find("vipsthumbnail")

    print(f"\ngallerygen benchmark, {time.strftime('%Y-%m-%d')}, {platform.node()}: {os.cpu_count()} cores, "
          f"{platform.processor() or platform.machine()}; library {library} ({photos} files); "
          f"previews {a.preview}, thumbnails {a.thumbnail}, quality {QUALITY}, --jobs {a.jobs}\n")
    print(benchlib.TABLE_HEADER)
    notes = []
    mirror = None
    for fmt in a.formats.split(","):
        out = os.path.join(work, f"site-{fmt}")
        base = [binary, "build", library, "--output", out, "--format", fmt, "--quality", str(QUALITY),
                "--jobs", str(a.jobs), "--quiet"] + sizes
        cold = run_timed(base)
        print(row(f"gallerygen {fmt}, cold", photos, cold), flush=True)
        noop = run_timed(base)
        print(row(f"gallerygen {fmt}, no-op rebuild", photos, noop), flush=True)
        added_src = os.path.join(work, f"added-src-{fmt}")
        benchlib.make_photo_library(added_src, 10, seed=4242, width=width, height=height)
        added = os.path.join(library, f"_bench_added_{os.getpid()}")
        try:
            shutil.copytree(added_src, added)
            add = run_timed(base)
            added_files = sum(1 for _ in walk_files(added, PHOTO_EXT))
            print(row(f"gallerygen {fmt}, add {added_files} files (10 photos + extras)", added_files, add), flush=True)
        finally:
            shutil.rmtree(added, ignore_errors=True)
            shutil.rmtree(added_src, ignore_errors=True)
        # The library's JPEGs alone: what the codec floor measures and what
        # sigal is compared on.
        if mirror is None:
            mirror = os.path.join(work, "jpegs")
            jpeg_mirror(library, mirror)
        jpeg_count = sum(1 for _ in walk_files(mirror, JPEG_EXT))
        # Floor and build alternated: each build's ratio is to the floor
        # measured just before it (the median pair is kept).
        paired = []
        for r in range(max(1, a.rounds)):
            floor_seconds = None
            if not a.no_floor:
                floor = subprocess.run([binary, "codec-floor", library, "--format", fmt, "--quality", str(QUALITY)] + sizes,
                                       capture_output=True, text=True, check=True)
                m = re.search(r"photos (\d+) decode_cpu_s ([\d.]+) encode_cpu_s ([\d.]+)", floor.stdout)
                floor_seconds = (int(m.group(1)), float(m.group(2)), float(m.group(3)))
            out_r = os.path.join(work, f"jpegs-{fmt}-{r}")
            run = run_timed([binary, "build", mirror, "--output", out_r, "--format", fmt, "--quality", str(QUALITY),
                             "--jobs", str(a.jobs), "--quiet"] + sizes)
            paired.append((run.cpu / (floor_seconds[1] + floor_seconds[2]) if floor_seconds else run.cpu, floor_seconds, run, out_r))
        (_, floor_seconds, ours, ours_out), ratios = median_pair(paired)
        print(row(f"gallerygen {fmt}, cold, JPEGs only (median of {len(paired)})", jpeg_count, ours), flush=True)
        if floor_seconds:
            jpegs, dec, enc = floor_seconds
            notes.append((fmt, "floor", jpegs, dec, enc, ratios))
        notes.append((fmt, "jpegs", jpeg_count, ours))
        if a.instructions:
            counted = instruction_ratio(binary, mirror, fmt, sizes, work)
            if counted:
                notes.append((fmt, "instructions") + counted)
        if sigal:
            sdir = os.path.join(work, f"sigal-{fmt}")
            os.makedirs(sdir)
            with open(os.path.join(sdir, "sigal.conf.py"), "w") as f:
                f.write(f"source = {mirror!r}\ndestination = {os.path.join(sdir, 'out')!r}\n"
                        f"img_size = ({pw}, {ph})\nthumb_size = ({tw}, {th})\n"
                        f"jpg_options = {{'quality': {QUALITY}, 'optimize': True, 'progressive': True}}\n"
                        + ("img_format = 'WEBP'\n" if fmt == "webp" else ""))
            theirs = run_timed([sigal, "build", "-c", "sigal.conf.py", "-n", str(a.jobs)], cwd=sdir)
            print(row(f"sigal {fmt}, cold, JPEGs only", jpeg_count, theirs), flush=True)
            quality = preview_quality(mirror, gallerygen_previews(ours_out), sigal_previews(os.path.join(sdir, "out")),
                                      a.quality_sample)
            notes.append((fmt, "sigal", jpeg_count, ours, theirs,
                          folder_bytes(os.path.join(ours_out, "media"), (".webp", ".jpg")),
                          folder_bytes(os.path.join(sdir, "out"), (".webp", ".jpg", ".jpeg")), quality))
            shutil.rmtree(sdir, ignore_errors=True)
        if vips:
            # libvips' own thumbnailer on the same JPEGs, one process per
            # size (each a preview or a thumbnail of every photo, its own
            # threads), the same quality: the fastest resizer people use.
            vdir = os.path.join(work, f"vips-{fmt}")
            os.makedirs(vdir)
            files = list(walk_files(mirror, JPEG_EXT))
            suffix = ".webp" if fmt == "webp" else ".jpg"
            total = benchlib.serial(run_timed([vips, "--size", box, "-o", os.path.join(vdir, "%s-" + tag + suffix + f"[Q={QUALITY}]")]
                                       + files) for box, tag in ((a.preview, "p"), (a.thumbnail, "t")))
            print(row(f"vipsthumbnail {fmt}, JPEGs only (previews + thumbnails)", jpeg_count, total), flush=True)
            notes.append((fmt, "vips", jpeg_count, ours, total))
            shutil.rmtree(vdir, ignore_errors=True)
        for _, _, _, out_r in paired:
            benchlib.remove_site(out_r)
        benchlib.remove_site(out)

    if a.heic > 0 and benchlib.peers.find("heif-enc") and benchlib.peers.find("heif-convert"):
        notes.append(heic_section(a, binary, library, work, sizes, vips))

    print()
    floors = {note[0]: note for note in notes if note[1] == "floor"}
    for note in notes:
        fmt, kind = note[0], note[1]
        if kind == "jpegs" and fmt in floors:
            _, _, n, ours = note
            _, _, jpegs, dec, enc, ratios = floors[fmt]
            print(f"- {fmt}: codec floor {dec + enc:.1f} CPU s for {jpegs} JPEGs (decode {dec:.1f} s at the chosen DCT "
                  f"scale, encode {enc:.1f} s); the JPEGs-only build took {ours.cpu:.1f} CPU s = "
                  f"**{ours.cpu / (dec + enc):.2f}× the floor**{spread(ratios)}")
        elif kind == "instructions":
            _, _, total, decode, encode, resampling, pages = note
            print(f"- {fmt}: instructions (callgrind, one job): the JPEGs-only build {total / 1e9:.2f} G, its codec calls "
                  f"{(decode + encode) / 1e9:.2f} G (decode {decode / 1e9:.2f}, encode {encode / 1e9:.2f}) = "
                  f"**{total / (decode + encode):.3f}×** (the same on every run); above them: resampling kernels "
                  f"{resampling / 1e9:.2f} G, pages {pages / 1e9:.2f} G, the rest "
                  f"{(total - decode - encode - resampling - pages) / 1e9:.2f} G")
        elif kind == "vips":
            _, _, n, ours, theirs = note
            print(f"- {fmt}, {n} JPEGs: **{theirs.cpu / ours.cpu:.2f}× vipsthumbnail's CPU** ({ours.cpu:.1f} vs {theirs.cpu:.1f} CPU s; "
                  f"both make each photo's preview and thumbnail; gallerygen also its pages)")
        elif kind == "sigal":
            _, _, n, ours, theirs, ours_bytes, their_bytes, quality = note
            print(f"- {fmt}, {n} JPEGs: gallerygen {n / ours.wall:.1f} photos/s vs sigal {n / theirs.wall:.1f} = "
                  f"**{theirs.wall / ours.wall:.2f}× sigal's photos/s** ({theirs.cpu / ours.cpu:.2f}× less CPU); "
                  f"output {ours_bytes / 1e6:.1f} MB vs {their_bytes / 1e6:.1f} MB ({ours_bytes / their_bytes:.2f}×); "
                  f"peak RSS {ours.peak_mb:.0f} MB vs {theirs.peak_mb:.0f} MB")
            print_quality(quality, "Pillow Lanczos of the full-size original")
        elif kind == "heic":
            _, _, n, ours, convert, vips_run, ours_bytes, quality, ratios = note
            print(f"- heic, {n} photos: the build took {ours.cpu:.1f} CPU s = **{ours.cpu / convert.cpu:.2f}× heif-convert's**{spread(ratios)} "
                  f"({convert.cpu:.1f} CPU s to decode each and write one full-size JPEG), {n / ours.wall:.1f} photos/s, "
                  f"peak RSS {ours.peak_mb:.0f} MB, output {ours_bytes / 1e6:.1f} MB"
                  + (f"; **{vips_run.cpu / ours.cpu:.2f}× vipsthumbnail's CPU** ({vips_run.cpu:.1f} CPU s)" if vips_run else ""))
            print_quality(quality, "Pillow Lanczos of the lossless full-size decode")
    shutil.rmtree(work, ignore_errors=True)


def print_quality(quality, reference):
    """One line per tool: mean and worst PSNR and mean bytes of its previews."""
    for tool, scores in quality.items():
        if scores:
            values = [v for v, _ in scores]
            print(f"  - {tool} previews: PSNR {sum(values) / len(values):.2f} dB mean, {min(values):.2f} dB min, "
                  f"{sum(b for _, b in scores) / len(scores) / 1000:.0f} KB mean ({len(scores)} previews vs {reference})")


def heic_section(a, binary, library, work, sizes, vips):
    """gallerygen on HEIC photos next to heif-convert and vipsthumbnail."""
    from PIL import Image
    sources = benchlib.jpegs_in(library, a.heic, complete=True)
    # Kept for the next run of the same library.
    folder = f"/tmp/gallerygen-heic-{os.path.basename(os.path.abspath(library))}-{len(sources)}"
    files = sorted(benchlib.convert_photos("heic", sources, folder))
    n = len(files)
    scratch = os.path.join(work, "heif-convert")
    os.makedirs(scratch)
    script = f'heif-convert -q {QUALITY} "$1" {scratch}/"$(basename "$1")".jpg >/dev/null'
    # heif-convert and the build alternated; the median pair by ratio is kept.
    paired = []
    for r in range(max(1, a.rounds)):
        convert_r = run_timed(["xargs", "-P", str(a.jobs), "-n", "1", "sh", "-c", script, "_"], input="\n".join(files))
        out_r = os.path.join(work, f"site-heic-{r}")
        ours_r = run_timed([binary, "build", folder, "--output", out_r, "--format", "jpeg", "--quality", str(QUALITY),
                            "--jobs", str(a.jobs), "--quiet"] + sizes)
        paired.append((ours_r.cpu / convert_r.cpu, ours_r, convert_r, out_r))
    (_, ours, convert, out), ratios = median_pair(paired)
    print(row(f"gallerygen heic, cold (median of {len(paired)})", n, ours), flush=True)
    print(row("heif-convert heic -> one full-size JPEG each", n, convert), flush=True)
    vips_run, theirs = None, {}
    if vips:
        vdir = os.path.join(work, "vips-heic")
        os.makedirs(vdir)
        vips_run = benchlib.serial(run_timed([vips, "--size", box, "-o", os.path.join(vdir, "%s-" + tag + f".jpg[Q={QUALITY}]")] + files)
                            for box, tag in ((a.preview, "p"), (a.thumbnail, "t")))
        print(row("vipsthumbnail heic (previews + thumbnails)", n, vips_run), flush=True)
        theirs = {f[:-len("-p.jpg")]: os.path.join(vdir, f) for f in os.listdir(vdir) if f.endswith("-p.jpg")}
    # Quality: a lossless full-size decode (heif-convert to PNG) as the reference.
    ours_previews = gallerygen_previews(out)
    scores = {"gallerygen": [], "vipsthumbnail": []}
    sample = files[:: max(1, n // a.quality_sample)][:a.quality_sample]
    for path in sample:
        name = os.path.basename(path)
        png = os.path.join(scratch, name + ".png")
        subprocess.run(["heif-convert", path, png], check=True, capture_output=True)
        with Image.open(png) as full:
            reference = full.convert("RGB")
        for tool, made in (("gallerygen", ours_previews.get(name)), ("vipsthumbnail", theirs.get(os.path.splitext(name)[0]))):
            if made:
                with Image.open(made) as image:
                    picture = image.convert("RGB")
                scores[tool].append((psnr(picture, reference.resize(picture.size, Image.LANCZOS)), os.path.getsize(made)))
    ours_bytes = folder_bytes(os.path.join(out, "media"), (".jpg",))
    for _, _, _, out_r in paired:
        benchlib.remove_site(out_r)
    return ("heic", "heic", n, ours, convert, vips_run, ours_bytes, scores, ratios)


if __name__ == "__main__":
    main()
