#!/usr/bin/env bash
# Makes a Debian package of gallerygen: gallerygen_<version>_<arch>.deb.
#
#   bash scripts/package-deb.sh [OUTDIR]     (default OUTDIR: .build/deb)
#
# The binary is the release build with the Swift runtime and Foundation linked
# in (--static-swift-stdlib), so the package needs no Swift toolchain. Its
# Depends line is what dpkg-shlibdeps finds the binary linked against (the C
# libraries' runtime packages), so it cannot drift from the code; ffmpeg is
# Recommends (videos need it, photos do not). The package carries a man page
# made from the --help texts and the licences of everything linked into the
# binary. Containerfile installs this same package, so the two share one
# dependency list, which the chroot test (scripts/deb_check.sh) proves enough.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mkdir -p "${1:-.build/deb}" && cd "${1:-.build/deb}" && pwd)"

bash scripts/deps.sh build
command -v dpkg-shlibdeps >/dev/null || { echo "dpkg-shlibdeps missing: apt-get install dpkg-dev" >&2; exit 1; }
swift build -c release --static-swift-stdlib --product gallerygen
bin="$(swift build -c release --static-swift-stdlib --show-bin-path)/gallerygen"
version="$("$bin" --version | awk '{print $2}')"
arch="$(dpkg --print-architecture)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
root="$work/root"
mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/man/man1" "$root/usr/share/doc/gallerygen"
install -m 0755 "$bin" "$root/usr/bin/gallerygen"
strip --strip-unneeded "$root/usr/bin/gallerygen"

# The man page: every command's --help, as the binary prints it.
{
  echo ".TH GALLERYGEN 1 \"$(date -u +%Y-%m-%d)\" \"gallerygen $version\" \"User Commands\""
  echo ".SH NAME"
  echo "gallerygen \\- generate a fast, private static photo gallery from a folder tree of photos"
  for command in "" build serve people init settings; do
    echo ".SH ${command:+$(echo "$command" | tr a-z A-Z) }USAGE"
    echo ".nf"
    # shellcheck disable=SC2086
    "$bin" $command --help | sed -e 's/\\/\\e/g' -e 's/^\./\\\&./' -e "s/^'/\\\\\\&'/"
    echo ".fi"
  done
  echo ".SH SEE ALSO"
  echo "The README and docs/ of the gallerygen repository; ffmpeg(1)."
} > "$root/usr/share/man/man1/gallerygen.1"
gzip -9n "$root/usr/share/man/man1/gallerygen.1"

# Licences (machine-readable copyright, DEP 5) of what the binary holds.
doc="$root/usr/share/doc/gallerygen"
{
  cat packaging/copyright
  for package in swift-argument-parser Yams ZIPFoundation swift-crypto swift-asn1 FlyingFox; do
    licence="$(ls .build/checkouts/$package/LICENSE* | head -1)"
    echo
    echo "Files: (linked into /usr/bin/gallerygen) $package"
    echo "License: see below"
    sed -e 's/^$/./' -e 's/^/ /' "$licence"
  done
} > "$doc/copyright"
cp Sources/CPlaces/GEONAMES.md "$doc/GEONAMES.md"
# The face models `faces: auto` reads (CC0), where the binary looks for them.
bash scripts/face-models.sh "$root/usr/share/gallerygen/face-models"
gzip -9n -c README.md > "$doc/README.md.gz"

# Depends: what the binary is linked against, as dpkg-shlibdeps names it.
mkdir -p "$work/debian"
printf 'Source: gallerygen\n\nPackage: gallerygen\nArchitecture: any\n' > "$work/debian/control"
depends="$(cd "$work" && dpkg-shlibdeps -O root/usr/bin/gallerygen 2>/dev/null | sed -n 's/^shlibs:Depends=//p')"
[ -n "$depends" ] || { echo "dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# The maintainers as the repository's commits name them.
maintainer="$(git log -1 --format='%an <%ae>' 2>/dev/null || echo 'gallerygen maintainers <root@localhost>')"
size="$(du -sk --exclude=DEBIAN "$root" | cut -f1)"
cat > "$root/DEBIAN/control" <<CONTROL
Package: gallerygen
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $size
Depends: $depends
Recommends: ffmpeg, libopenblas0-pthread
Section: graphics
Priority: optional
Description: static web photo gallery generator
 gallerygen turns a folder tree of photos and videos into a fast, private
 website that any web server, a CDN or file:// can serve: an album per
 folder, a moments timeline, a page per item, tags, favourites and search,
 screen-sized renditions, animations kept animated, private albums, and
 rebuilds that do only what changed; "gallerygen serve" previews a site.
CONTROL
package="$out/gallerygen_${version}_${arch}.deb"
dpkg-deb --build --root-owner-group -Zxz "$root" "$package" >/dev/null
echo "$package"
