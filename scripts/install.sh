#!/usr/bin/env bash
# Puts gallerygen on PATH.
#
#   scripts/install.sh [PREFIX]              build (release) and install PREFIX/bin/gallerygen
#                                            and the face models in PREFIX/share/gallerygen/face-models
#   scripts/install.sh --uninstall [PREFIX]  remove PREFIX/bin/gallerygen again
#
# PREFIX defaults to /usr/local (root needed: run it with sudo); for a
# per-user install use ~/.local (then ~/.local/bin must be on PATH).
# The binary is self-contained: templates and themes are embedded in it, the
# Swift runtime and Foundation are linked in (--static-swift-stdlib: it runs
# without the Swift toolchain, starts faster and spends less time in dynamic
# calls), and it needs only the C libraries' runtime packages that the build
# installed.
set -euo pipefail
cd "$(dirname "$0")/.."

uninstall=false
if [ "${1:-}" = --uninstall ]; then
  uninstall=true
  shift
fi
prefix="${1:-/usr/local}"
target="$prefix/bin/gallerygen"

if $uninstall; then
  rm -rf "$prefix/share/gallerygen/face-models"
  rmdir "$prefix/share/gallerygen" 2>/dev/null || true
  if [ -e "$target" ]; then
    rm -f "$target"
    echo "Removed $target"
  else
    echo "Nothing to remove: $target does not exist"
  fi
  exit 0
fi

bash scripts/deps.sh build
# Under sudo, the clone is still its owner's: build as them (a root-owned
# .build/ would stop their own builds), install as root.
as_user=()
if [ "$(id -u)" -eq 0 ] && [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
  as_user=(sudo -u "$SUDO_USER" env "PATH=$PATH" "HOME=$(getent passwd "$SUDO_USER" | cut -d: -f6)")
fi
"${as_user[@]}" swift build -c release --static-swift-stdlib --product gallerygen
bin="$("${as_user[@]}" swift build -c release --static-swift-stdlib --show-bin-path)/gallerygen"
mkdir -p "$prefix/bin" 2>/dev/null || true
if ! install -m 0755 "$bin" "$target" 2>/dev/null; then
  echo "Cannot write $target. Run: sudo bash scripts/install.sh $prefix   (or pick a PREFIX you own, e.g. ~/.local)" >&2
  exit 1
fi
# The face models `faces: auto` reads, beside the binary's prefix (CC0, pinned by SHA-256).
models="$prefix/share/gallerygen/face-models"
if ! bash scripts/face-models.sh "$models"; then
  echo "Note: the face models could not be installed in $models (faces: auto needs them; the rest works without)" >&2
fi
echo "Installed $target ($("$target" --version))"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "Note: $prefix/bin is not on your PATH; add it, e.g. export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
echo "Remove it with: bash scripts/install.sh --uninstall $prefix"
