#!/usr/bin/env bash
# Runs every test: installs what the tests need (as root), then
#   1. the Swift suite (unit, end-to-end, incremental, kill and watch tests);
#   2. the browser tests of the viewer (selenium + headless Chromium);
#   3. a fuzz smoke run: each libFuzzer target for FUZZ_SECONDS (default 20);
#   4. the Swift suite again under AddressSanitizer (a build of its own in .build-asan).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh test
swift build --build-tests
swift test --skip-build
GALLERYGEN="$(swift build --show-bin-path)/gallerygen" python3 -m pytest -q Tests/browser
bash scripts/fuzz.sh "${FUZZ_SECONDS:-20}"
swift build --build-tests --sanitize=address --scratch-path .build-asan
LSAN_OPTIONS="suppressions=$(pwd)/Tests/lsan-suppressions.txt:print_suppressions=0" \
  swift test --skip-build --sanitize=address --scratch-path .build-asan
