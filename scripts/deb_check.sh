#!/usr/bin/env bash
# Proves the Debian package installs and works on a Debian 12 that has never
# seen gallerygen: mmdebstrap makes a fresh minimal bookworm root, and inside
# it, as a user would, `apt-get install ./gallerygen_*.deb` pulls the
# package's Depends from Debian, then `gallerygen build` makes the sample
# library's site and `gallerygen --version` answers. Root only (a chroot).
#
#   bash scripts/deb_check.sh [DEB]    (default: make one with scripts/package-deb.sh)
#
# Recommends (ffmpeg, for videos) are left out to keep the check quick: the
# sample library has no videos, and what is proved is that Depends suffices.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "deb_check: needs root (it makes a chroot)" >&2; exit 1; }
if ! command -v mmdebstrap >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null
fi
deb="${1:-$(bash scripts/package-deb.sh | tail -1)}"
deb="$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in"
cp "$deb" "$work/in/"
cp -r Examples/sample-library "$work/in/library"
# faces: auto finds the models where the package put them (the build says "Faces: …", no warning).
printf 'faces: auto\npublish_people: true\n' > "$work/in/faces.yml"
# The sample site is written inside the chroot and its front page copied out to be checked here.
mmdebstrap --quiet --variant=apt bookworm /dev/null \
  --customize-hook="copy-in $work/in /tmp" \
  --customize-hook='chroot "$1" sh -ec "apt-get install -y -qq --no-install-recommends /tmp/in/gallerygen_*.deb >/dev/null"' \
  --customize-hook='chroot "$1" gallerygen --version' \
  --customize-hook='chroot "$1" sh -ec "useradd -m viewer; su viewer -c \"gallerygen build /tmp/in/library --output /home/viewer/site\""' \
  --customize-hook='chroot "$1" sh -ec "su viewer -c \"gallerygen build /tmp/in/library --output /home/viewer/faces --config /tmp/in/faces.yml\" > /tmp/faces.log 2>&1; grep -q ^Faces: /tmp/faces.log; ! grep -q face.models /tmp/faces.log"' \
  --customize-hook="copy-out /home/viewer/site/index.html $work" \
  --customize-hook='chroot "$1" sh -ec "man -w gallerygen >/dev/null 2>&1 || test -f /usr/share/man/man1/gallerygen.1.gz; test -f /usr/share/doc/gallerygen/copyright"'
grep -q "Coolpix walk" "$work/index.html"
echo "deb check: $(basename "$deb") installed into a fresh Debian 12 root with apt-get and built the sample library as a plain user (with faces: auto too)"
