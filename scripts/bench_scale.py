#!/usr/bin/env python3
"""Rebuilds at scale: what a change costs against a no-op, at 100,000 items.

Makes a library of tiny JPEGs (benchlib.tiny_jpeg: 16x16, EXIF dates spread
over twelve years, 100 photos an album in year folders), builds it with tiny
renditions (pages, state and planning are what is measured), then:

  cold         the first build into an empty OUT
  no-op        nothing changed
  add one      one photo copied into one album
  caption one  a sidecar title written beside one photo
  remove one   that photo removed again (and its sidecar)
  --watch      `build --watch` running: the photo copied in, until its page
               is in OUT (the watcher's wait for quiet included), then
               removed again; `--watch-trials` times (0: not measured)

For each: wall and CPU seconds, peak RSS, the pages rendered (the build's
"rendered N of M pages"), and the files written and removed in OUT. The floor
of any no-op is listing the library (`find SOURCE -type f -printf '%s %T@ %p\\n'`),
timed first; the no-op and add-one are given as multiples of it and of the no-op.

With --stacks off the stack rules are off (stacks.bursts, stacks.edits: the
cost of stacking is the difference); --bursts names half of each album's
photos as camera bursts of five frames (a library to stack, in its own --work).

With --memory-limit 1G every step runs in a memory cgroup of that size
(swap included, root only), as on a small NAS: a step over it is killed by
the kernel and the benchmark stops there, saying so. With --unlimited cold
the steps named run outside the limit (the first build made on a larger
machine, the rebuilds on the small one), and the table says which did. The
table gives each step's peak RSS divided by the item count.

With --compare-clean the site after "add one" is compared with a clean build
of the same library (into WORK/site-clean, removed after; run as the cold
build is, within the limit or not): every file of both, by its SHA-256, both
trees walked side by side (never held). A difference ends the benchmark.

usage: scripts/bench_scale.py [--count 100000] [--work DIR] [--binary PATH] [--jobs N] [--watch-trials 3] [--stacks on|off] [--bursts]
                              [--memory-limit 1G [--unlimited cold]] [--compare-clean]
"""
import argparse
import datetime
import os
import re
import shutil
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from benchlib import memlimit  # noqa: E402


def plain_name(i):
    return f"IMG_{i:04d}.jpg"


def burst_name(i):
    """Half the photos as bursts of five frames (IMG_003_BURST002.jpg), the rest plain."""
    return f"IMG_{i // 10:03d}_BURST{i % 10:03d}.jpg" if i % 10 < 5 else plain_name(i)


def make_library(library, count, per_album=100, photo=benchlib.tiny_jpeg, settings=True, name=plain_name):
    """`count` tiny JPEGs in albums of `per_album`, dated over twelve years;
    `photo(number, when)` makes each one's bytes, `name(i)` names the album's i-th."""
    start = datetime.datetime(2014, 1, 1, 8, 0, 0)
    span = 12 * 365 * 86400
    albums = max(1, (count + per_album - 1) // per_album)
    for a in range(albums):
        first = a * per_album
        n = min(per_album, count - first)
        when = start + datetime.timedelta(seconds=span * a // albums)
        folder = os.path.join(library, str(when.year), f"{when:%m-%d} album {a:05d}")
        os.makedirs(folder, exist_ok=True)
        for i in range(n):
            shot = when + datetime.timedelta(seconds=i * 613)
            with open(os.path.join(folder, name(i)), "wb") as f:
                f.write(photo(first + i, shot))
    if settings:
        with open(os.path.join(library, "gallery.yml"), "w") as f:
            f.write("title: Scale\nthumbnail_sizes: [32x24]\npreview_sizes: [64x48]\nformat: jpeg\n")


def rendered(run):
    m = re.search(r"rendered ([\d,]+) of ([\d,]+) pages", run.stdout + run.stderr)
    return (int(m.group(1).replace(",", "")), int(m.group(2).replace(",", ""))) if m else (None, None)


def watch_latency(build, added, photo, page, trials, preexec_fn=None):
    """Seconds from `photo` written to `added` until `page` is in OUT, with
    `build --watch` running; the photo is removed again (and its page seen
    gone) between trials."""
    proc = subprocess.Popen(build + ["--watch"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, preexec_fn=preexec_fn)
    builds = threading.Semaphore(0)

    def read():
        for line in proc.stderr:
            if "for changes" in line:
                builds.release()
    threading.Thread(target=read, daemon=True).start()

    def settled():
        if not builds.acquire(timeout=600):
            proc.kill()
            raise SystemExit("build --watch did not finish a build in 600 s")
    latencies = []
    try:
        settled()
        for _ in range(trials):
            time.sleep(1.0)
            started = time.monotonic()
            with open(added, "wb") as f:
                f.write(photo)
            while not os.path.exists(page):
                if time.monotonic() - started > 120:
                    raise SystemExit(f"build --watch did not write {page} in 120 s")
                time.sleep(0.01)
            latencies.append(time.monotonic() - started)
            settled()
            os.remove(added)
            while os.path.exists(page):
                time.sleep(0.01)
            settled()
    finally:
        proc.terminate()
        proc.wait()
    return latencies


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--work", default=None, help="folder for the library and site (default /tmp/gallerygen-scale-COUNT)")
    parser.add_argument("--binary", default=None, help="gallerygen to measure (default: a release build of this checkout)")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--watch-trials", type=int, default=3, help="photos added under build --watch (0: none)")
    parser.add_argument("--stacks", choices=["on", "off"], default="on", help="the stack rules on (the default) or off")
    parser.add_argument("--bursts", action="store_true", help="half of each album's photos named as bursts of five frames")
    parser.add_argument("--memory-limit", type=memlimit.parse_size, default=None,
                        help="run every step in a cgroup of this many bytes (1G, 512M), as on a small NAS; root only")
    parser.add_argument("--unlimited", default="", help="steps run outside --memory-limit, comma-separated (cold)")
    parser.add_argument("--compare-clean", action="store_true", help="compare the site after the add with a clean build's, file by file")
    args = parser.parse_args()
    args.unlimited = {name.strip() for name in args.unlimited.split(",") if name.strip()}
    unknown = args.unlimited - {"cold", "no-op", "add one", "caption one", "remove one"}
    if unknown:
        parser.error(f"--unlimited: no step named {', '.join(sorted(unknown))}")
    if args.memory_limit:
        with memlimit.MemoryLimit(args.memory_limit) as limit:
            measure(args, limit)
    else:
        measure(args, None)


def compare_with_clean(args, work, build, out, limit):
    """Builds the library cleanly into WORK/site-clean (within `limit` if
    given) and compares it with `out`, file by file; exits on a difference."""
    clean = os.path.join(work, "site-clean")
    benchlib.remove_site(clean)
    command = [clean if part == out else part for part in build]
    run = benchlib.run_timed(command, check=limit is None, preexec_fn=limit.enter if limit else None)
    if run.returncode != 0:
        why = "killed by the kernel at the memory limit" if limit and limit.killed(run) else f"failed ({run.returncode})"
        raise SystemExit(f"the clean build to compare with: {why}:\n{run.stderr[-2000:]}")
    started = time.monotonic()
    same, differences, count = benchlib.compare_trees(out, clean)
    benchlib.remove_site(clean)
    if count:
        raise SystemExit(f"add one differs from a clean build in {count} files:\n" + "\n".join(differences))
    print(f"add one against a clean build ({run.wall:.2f} s wall, {run.peak_mb:.0f} MB): {same:,} files, "
          f"each the same bytes (SHA-256, compared in {time.monotonic() - started:.0f} s)", flush=True)


def measure(args, limit):
    """Every step, each timed; within `limit` (a MemoryLimit) when given."""

    work = args.work or f"/tmp/gallerygen-scale-{args.count}" + ("-bursts" if args.bursts else "")
    library, out = os.path.join(work, "library"), os.path.join(work, "site")
    if not os.path.exists(os.path.join(library, "gallery.yml")):
        print(f"making {args.count:,} tiny JPEGs in {library} …", flush=True)
        shutil.rmtree(library, ignore_errors=True)
        make_library(library, args.count, name=burst_name if args.bursts else plain_name)
    binary = args.binary or benchlib.build_binary()
    benchlib.remove_site(out)
    build = [binary, "build", library, "-o", out]
    if args.jobs:
        build += ["--jobs", str(args.jobs)]
    if args.stacks == "off":
        config = os.path.join(work, "stacks-off.yml")
        with open(os.path.join(library, "gallery.yml")) as f, open(config, "w") as g:
            g.write(f.read() + "stacks:\n  bursts: false\n  edits: false\n  near_duplicates: false\n")
        build += ["--config", config]

    listing = min((benchlib.run_timed(["find", library, "-type", "f", "-printf", "%s %T@ %p\\n"]) for _ in range(3)),
                  key=lambda r: r.wall)
    print(f"listing the library (find -printf, best of 3): {listing.wall:.2f} s wall, {listing.cpu:.2f} s CPU")

    album = sorted(os.path.join(dp, d) for dp, ds, _ in os.walk(library) for d in ds if "album" in d)[len(os.listdir(library)) // 2]
    added = os.path.join(album, "IMG_9999.jpg")
    sidecar = os.path.join(album, "IMG_0003.md")
    photo = benchlib.tiny_jpeg(args.count + 7, datetime.datetime(2019, 6, 1, 12))
    steps = [
        ("cold", lambda: None),
        ("no-op", lambda: None),
        ("add one", lambda: open(added, "wb").write(photo)),
        ("caption one", lambda: open(sidecar, "w").write("Title: A new caption\n\nWritten for the benchmark.\n")),
        ("remove one", lambda: (os.remove(added), os.remove(sidecar))),
    ]
    rows = []
    page = None
    for name, change in steps:
        change()
        before = benchlib.snapshot(out)
        limited = limit if name not in args.unlimited else None
        run = benchlib.run_timed(build, check=limited is None, preexec_fn=limited.enter if limited else None)
        if limited and run.returncode != 0:
            why = "killed by the kernel at the memory limit" if limit.killed(run) else f"failed ({run.returncode})"
            raise SystemExit(f"{name}: {why} ({args.memory_limit / (1 << 20):.0f} MB):\n{run.stderr[-2000:]}")
        after = benchlib.snapshot(out)
        written, removed, new = benchlib.changed_files(before, after)
        if name == "add one":
            page = next((os.path.join(out, path) for path in new if path.endswith("/img-9999.html")), None)
        pages, total = rendered(run)
        rows.append((name + (" (no limit)" if limit and not limited else ""), run, pages, total, written, removed))
        print(f"{name:12s} {run.wall:7.2f} s wall {run.cpu:7.2f} s CPU {run.peak_mb:7.0f} MB  "
              f"rendered {pages} of {total} pages, {written} files written, {removed} removed", flush=True)
        if name == "add one" and args.compare_clean:
            compare_with_clean(args, work, build, out, limit if "cold" not in args.unlimited else None)
    noop = rows[1][1]
    print()
    if limit:
        outside = f" but {', '.join(sorted(args.unlimited))}" if args.unlimited else ""
        print(f"Every step{outside} ran within a {args.memory_limit / (1 << 20):.0f} MB memory cgroup (swap included).")
    print(f"| step ({args.count:,} items) | wall s | CPU s | peak RSS MB | peak bytes per item | pages rendered | files written | removed |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, step, pages, total, written, removed in rows:
        print(f"| {name} | {step.wall:.2f} | {step.cpu:.2f} | {step.peak_mb:.0f} | {step.peak_mb * (1 << 20) / args.count:,.0f} | "
              f"{pages} of {total} | {written} | {removed} |")
    print()
    print(f"no-op / listing: {noop.wall / listing.wall:.1f}x wall; add one / no-op: {rows[2][1].wall / noop.wall:.2f}x; "
          f"caption one / no-op: {rows[3][1].wall / noop.wall:.2f}x; remove one / no-op: {rows[4][1].wall / noop.wall:.2f}x")
    if args.watch_trials > 0:
        if page is None:
            raise SystemExit("the added photo's page was not among the files the add wrote")
        latencies = watch_latency(build, added, photo, page, args.watch_trials, preexec_fn=limit.enter if limit else None)
        print(f"--watch: the added photo's page in OUT after {', '.join(f'{t:.2f}' for t in latencies)} s "
              f"(worst {max(latencies):.2f} s)")


if __name__ == "__main__":
    main()
