#!/usr/bin/env bash
# Installs what gallerygen needs on Debian 12 or Ubuntu 22.04/24.04.
#
#   scripts/deps.sh build   the C libraries' -dev packages (to build gallerygen)
#                           and ffmpeg (which gallerygen runs for videos)
#   scripts/deps.sh test    those, plus Chromium + chromedriver and python3-venv
#                           for the browser tests, and a virtual environment in
#                           .build/venv holding selenium and pytest
#   scripts/deps.sh bench   those, plus the benchmarks' peers: libvips-tools,
#                           libraw-bin and sigal (in .build/venv)
#
# Run as root it installs the missing Debian packages itself; as another user
# it prints the exact `sudo apt-get install` line and stops (exit 1).
# Python packages never go into the system Python (Debian's refuses them,
# PEP 668): they live in .build/venv, which `git clean` and .gitignore cover.
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-build}"
case "$mode" in
  build|test|bench) ;;
  *) echo "usage: $0 build|test|bench" >&2; exit 2 ;;
esac

# Names that exist on Debian and Ubuntu alike (libjpeg-dev, not libjpeg62-turbo-dev).
# libheif-dev brings libheif1 and with it the HEVC (libde265) and AV1 (dav1d, aom) decoders.
# ffmpeg (with ffprobe) makes videos' posters and playback files; without it
# videos are listed as skipped and photos still build.
# libcurl4-openssl-dev: the release build links Foundation statically, and the
# HTTP library of `gallerygen serve` pulls in FoundationNetworking, which needs libcurl.
# dpkg-dev: dpkg-shlibdeps, for scripts/package-deb.sh.
# libdlib-dev finds and describes faces (`faces: auto`); it links BLAS and
# LAPACK through their -dev symlinks (the runtime packages have only .so.3).
# libopenblas0-pthread becomes the system's libblas.so.3 (Debian's
# alternatives): the face describer's matrix products run 4 times faster
# than on the reference BLAS. The threaded build, told to run each call on
# its caller's thread (gallerygen runs one photo per core): the serial one
# is not safe to call from two threads at once (docs/faces.md).
# python3-venv: scripts/face-models.sh fetches the face models with pip.
build_packages=(libjpeg-dev libwebp-dev libexif-dev libgif-dev libpng-dev zlib1g-dev libheif-dev libjxl-dev libavif-dev libtiff-dev libraw-dev pkg-config ffmpeg
                libcurl4-openssl-dev dpkg-dev libdlib-dev libblas-dev liblapack-dev libopenblas0-pthread python3-venv)
# Chromium is `chromium` on Debian; Ubuntu ships it as `chromium-browser`.
distro="$(. /etc/os-release 2>/dev/null && echo "${ID:-debian}")"
if [ "$distro" = ubuntu ]; then
  browser_packages=(chromium-browser chromium-chromedriver)
else
  browser_packages=(chromium chromium-driver)
fi
# The camera-format tests make their HEIC/AVIF, TIFF and EXIF fixtures with
# heif-enc/heif-info, tiffcp and exiftool; the video tests their clips with
# ffmpeg and check the published ones with exiftool; the fault tests measure
# a build's peak memory with GNU time. libopenblas0-serial: scripts/test.sh
# finds faces on four threads again on it, where they are described one at a time.
test_packages=("${browser_packages[@]}" python3-venv libheif-examples libjxl-tools libtiff-tools libimage-exiftool-perl time libopenblas0-serial)

wanted=("${build_packages[@]}")
[ "$mode" = build ] || wanted+=("${test_packages[@]}")

missing=()
for package in "${wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "Installing Debian packages: ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "Missing Debian packages. Run:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

# The face models (`faces: auto`), pinned by SHA-256, into .build/face-models.
scripts/face-models.sh .build/face-models

[ "$mode" = build ] && exit 0

# The browser tests' Python tools, in a virtual environment of the system's
# own python3 (whichever python3 comes first on PATH is fine too).
venv=.build/venv
# feedparser: the feed test reads feed.xml as feed readers do; Pillow: the
# benchmarks make their photo libraries with it (their smoke test runs them).
if ! "$venv/bin/python" -c "import selenium, pytest, feedparser, PIL" 2>/dev/null; then
  echo "Setting up $venv (selenium, pytest, feedparser, pillow from PyPI)" >&2
  rm -rf "$venv"
  mkdir -p .build
  python3 -m venv "$venv" || {
    echo "python3 -m venv failed. Run: sudo apt-get install -y python3-venv" >&2
    exit 1
  }
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check selenium pytest feedparser pillow
fi
# axe-core for the accessibility test: the axe.min.js that axe-playwright-python
# carries (axe-core 4.12.1), without Playwright, which it would pull in and
# which the test does not use (it drives Debian's Chromium through selenium).
if ! "$venv/bin/python" -c "import axe_playwright_python" 2>/dev/null; then
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps axe-playwright-python==0.1.8
fi

# SSIMULACRA2 for bench_formats.py --renditions (AVIF against WebP; its smoke test runs it).
if ! "$venv/bin/python" -c "import ssimulacra2" 2>/dev/null; then
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check ssimulacra2==0.3.0
fi

# The labelled face photos the face tests and bench_faces.py read.
scripts/face-photos.sh .build/face-photos

[ "$mode" = bench ] || exit 0

# The peers the benchmarks set gallerygen against (each optional: a missing
# one is named and its comparison left out).
peers=(libvips-tools libraw-bin)
missing=()
for package in "${peers[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "For every comparison: sudo apt-get install -y ${missing[*]}" >&2
  fi
fi
"$venv/bin/python" -c "import sigal" 2>/dev/null || "$venv/bin/python" -m pip install --quiet --disable-pip-version-check sigal
