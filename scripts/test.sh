#!/usr/bin/env bash
# Runs every test: installs what the tests need (as root), then the Swift suite
# (unit and end-to-end) and the browser tests of the viewer (headless Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh test
swift build --build-tests
swift test --skip-build
GALLERYGEN="$(swift build --show-bin-path)/gallerygen" python3 -m pytest -q Tests/browser
