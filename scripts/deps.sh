#!/usr/bin/env bash
# Installs the Debian packages gallerygen needs, or, when not root, prints the
# exact apt-get line and fails. Usage: scripts/deps.sh build|test
set -euo pipefail

build_packages=(libjpeg62-turbo-dev libwebp-dev libexif-dev libgif-dev libpng-dev pkg-config)
test_packages=(chromium chromium-driver)

case "${1:-build}" in
  build) wanted=("${build_packages[@]}") ;;
  test) wanted=("${build_packages[@]}" "${test_packages[@]}") ;;
  *) echo "usage: $0 build|test" >&2; exit 2 ;;
esac

missing=()
for package in "${wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
# The browser tests drive Chromium with selenium, run by pytest (from PyPI).
if [ "${1:-build}" = test ] && ! python3 -c "import selenium, pytest" 2>/dev/null; then
  echo "Installing selenium and pytest from PyPI" >&2
  python3 -m pip install --quiet --disable-pip-version-check selenium pytest || {
    echo "Run: python3 -m pip install selenium pytest" >&2
    exit 1
  }
fi

[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  echo "Installing: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "Missing Debian packages. Run:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
