#!/usr/bin/env python3
"""Video throughput of gallerygen next to plain ffmpeg with the same settings.

It makes three sets of phone-like clips with ffmpeg (1080p30 with sensor-like
noise, so the encoder works as on real footage):

- remux: H.264 High + AAC (what an Android phone or an iPhone set to "Most
  Compatible" records): gallerygen copies the streams;
- transcode: HEVC 10-bit, portrait by display matrix (an iPhone's default):
  libx264 at video_quality/video_preset, turned upright;
- hdr: 4K HEVC 10-bit HLG (an iPhone's HDR video): tone-mapped to SDR BT.709
  and scaled to 1080p.

For each set it runs a cold `gallerygen build` of the clips alone (hash,
probe, poster frame, stills, playback file, pages), then the same build
again with only the playback files deleted from OUT (what is left is the
remux or transcode itself), and plain ffmpeg producing the same playback
files one after another (as many threads as it likes); it reports seconds of
video per wall second and the ratio of the playback-file run to plain ffmpeg.

usage: scripts/bench_video.py [--work DIR] [--binary PATH] [--jobs N] [--clips N] [--seconds S]

The clips are kept in --work (default /tmp/gallerygen-video-bench) and reused.
Needs ffmpeg with libx264, libx265 and zscale (Debian's has them) and exiftool.
"""
import argparse
import os
import shutil
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402  (what the benchmarks share: the timer, the peers, the libraries)
from benchlib import run_timed  # noqa: E402

TONEMAP = ("zscale=tin=arib-std-b67:pin=bt2020:min=bt2020nc:t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,"
           "tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv")
# gallerygen scales before tone mapping (VideoTools.pictureFilters); plain
# ffmpeg gets both orders: the NOTES' (tone map at full size) and gallerygen's.


def plain_ffmpeg(clips, kind, out, crf, preset, tonemap_first=False):
    """The same playback files with ffmpeg alone, one clip after another."""
    os.makedirs(out, exist_ok=True)
    runs = []
    for i, clip in enumerate(clips):
        common = ["ffmpeg", "-v", "error", "-y", "-i", clip, "-map", "0:v:0", "-map", "0:a:0?", "-map_metadata", "-1"]
        if kind == "remux":
            codec = ["-c:v", "copy", "-c:a", "copy"]
        else:
            scale = "scale=1920:1080,setsar=1" if kind == "hdr" else "scale=1080:1920,setsar=1"
            if kind == "hdr" and tonemap_first:
                chain = TONEMAP + "," + scale
            elif kind == "hdr":
                chain = scale + "," + TONEMAP
            else:
                chain = scale
            codec = ["-vf", chain + ",format=yuv420p", "-c:v", "libx264", "-profile:v", "high", "-preset", preset,
                     "-crf", str(crf), "-c:a", "copy"]
        runs.append(run_timed(common + codec + ["-movflags", "+faststart", os.path.join(out, f"{i}.mp4")]))
    return benchlib.serial(runs)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", default="/tmp/gallerygen-video-bench")
    parser.add_argument("--binary", help="default: a release build of this checkout")
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--clips", type=int, default=4)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--kinds", default="remux,transcode,hdr")
    args = parser.parse_args()
    args.binary = args.binary or benchlib.build_binary()
    crf, preset = 23, "veryfast"
    print(f"{args.clips} clips × {args.seconds} s per set, --jobs {args.jobs}, CRF {crf}, preset {preset}")
    print("| set | tool | video s | wall s | CPU s | video s per wall s | peak RSS MB |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for kind in args.kinds.split(","):
        count = max(1, args.clips // 2) if kind == "hdr" else args.clips
        seconds = max(1, args.seconds // 2) if kind == "hdr" else args.seconds
        clips = benchlib.make_clips(os.path.join(args.work, "clips", kind), kind, count, seconds)
        video_seconds = count * seconds
        out = os.path.join(args.work, "out-" + kind)
        benchlib.remove_site(out)
        run = run_timed([args.binary, "build", os.path.dirname(clips[0]), "--output", out, "--jobs", str(args.jobs), "--quiet"])
        print(f"| {kind} | gallerygen, cold build | {video_seconds} | {run.wall:.2f} | {run.cpu:.2f} | {video_seconds / run.wall:.1f} | "
              f"{run.peak_mb:.0f} |")
        for folder, _, files in os.walk(os.path.join(out, "media")):
            for name in files:
                if name.endswith(".mp4"):
                    os.unlink(os.path.join(folder, name))
        run = run_timed([args.binary, "build", os.path.dirname(clips[0]), "--output", out, "--jobs", str(args.jobs), "--quiet"])
        ours = video_seconds / run.wall
        print(f"| {kind} | gallerygen, playback files only | {video_seconds} | {run.wall:.2f} | {run.cpu:.2f} | {ours:.1f} | "
              f"{run.peak_mb:.0f} |")
        plain = os.path.join(args.work, "plain-" + kind)
        shutil.rmtree(plain, ignore_errors=True)
        run = plain_ffmpeg(clips, kind, plain, crf, preset)
        theirs = video_seconds / run.wall
        print(f"| {kind} | plain ffmpeg | {video_seconds} | {run.wall:.2f} | {run.cpu:.2f} | {theirs:.1f} | {run.peak_mb:.0f} |")
        print(f"|  | ratio | | | | **{ours / theirs:.2f}×** | |")
        if kind == "hdr":
            run = plain_ffmpeg(clips, kind, plain, crf, preset, tonemap_first=True)
            print(f"| {kind} | plain ffmpeg, tone map at full size | {video_seconds} | {run.wall:.2f} | {run.cpu:.2f} | "
                  f"{video_seconds / run.wall:.1f} | {run.peak_mb:.0f} |")


if __name__ == "__main__":
    main()
