#!/usr/bin/env bash
# The labelled face photos the face tests and scripts/bench_faces.py read,
# into DEST (default .build/face-photos). Real photographs, public domain:
#
#   face_recognition 1.3.0 (PyPI, MIT) test images: official White House
#     photographs (works of the U.S. federal government): Barack Obama
#     (obama.jpg, obama2.jpg, obama3.jpg) and Joe Biden (biden.jpg), each
#     cropped to one person from larger official photographs.
#   scikit-image 0.24.0 (PyPI, BSD) data/astronaut.png: NASA's portrait of
#     Eileen Collins (a work of NASA).
#
# Each archive is pinned by SHA-256. scripts/face_photos.py then writes the
# labelled set from them (the originals and copies turned, mirrored,
# scaled, darkened and set side by side, each with the people in it and
# where) and its labels.json.
set -euo pipefail
cd "$(dirname "$0")/.."
dest="${1:-.build/face-photos}"
python="${PYTHON:-.build/venv/bin/python}"
[ -x "$python" ] || python=python3
"$python" -c "import PIL" 2>/dev/null || { echo "face-photos.sh needs Pillow: run scripts/deps.sh test" >&2; exit 1; }
[ -f "$dest/labels.json" ] && [ "$(cat "$dest/.made-by" 2>/dev/null)" = "$(sha256sum scripts/face_photos.py | cut -c1-64)" ] && exit 0

sources=.build/face-photo-sources
mkdir -p "$sources"
fetch() {  # package==version, archive name, sha256, pip flags...
  local package="$1" archive="$2" sha="$3"; shift 3
  if ! echo "$sha  $sources/$archive" | sha256sum --check --status 2>/dev/null; then
    "$python" -m pip download --quiet --disable-pip-version-check --no-deps "$@" "$package" -d "$sources" >&2
    echo "$sha  $sources/$archive" | sha256sum --check --status || { echo "$archive: SHA-256 differs, refused" >&2; exit 1; }
  fi
}
fetch face_recognition==1.3.0 face_recognition-1.3.0.tar.gz 5e5efdd1686aa566af0d3cc1313b131e4b197657a8ffd03669e6d3fad92705ec --no-binary :all:
fetch scikit-image==0.24.0 scikit_image-0.24.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl \
  fa27b3a0dbad807b966b8db2d78da734cb812ca4787f7fbb143764800ce2fa9c \
  --only-binary :all: --python-version 3.11 --platform manylinux2014_x86_64 --implementation cp
originals="$sources/originals"
rm -rf "$originals" && mkdir -p "$originals"
tar -xzf "$sources/face_recognition-1.3.0.tar.gz" -C "$originals" --strip-components=3 \
  face_recognition-1.3.0/tests/test_images/obama.jpg face_recognition-1.3.0/tests/test_images/obama2.jpg \
  face_recognition-1.3.0/tests/test_images/obama3.jpg face_recognition-1.3.0/tests/test_images/biden.jpg
unzip -q -j -o "$sources/scikit_image-0.24.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl" skimage/data/astronaut.png -d "$originals"
rm -rf "$dest"
"$python" scripts/face_photos.py "$originals" "$dest"
sha256sum scripts/face_photos.py | cut -c1-64 > "$dest/.made-by"
