#!/usr/bin/env bash
# Runs every test: installs what the tests need (as root) and runs the Swift suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh test
swift build --build-tests
swift test --skip-build
