#!/usr/bin/env bash
# Runs every test: installs what the tests need (as root; otherwise it prints
# the exact apt-get line), then
#   1. the Swift suite (unit, end-to-end, incremental, kill and watch tests);
#   2. the browser tests (selenium + headless Chromium, from .build/venv) and
#      each benchmark run small (Tests/scripts: they work on a fresh clone);
#   3. the Slurm files for real: a single-node Slurm started here runs
#      deploy/slurm's array and page step (root only; installs slurm-wlm);
#   4. the Debian package: scripts/package-deb.sh makes it (a release build),
#      scripts/deb_check.sh installs it with apt-get into a fresh Debian 12
#      root (mmdebstrap) and builds the sample library there (root only);
#   5. a fuzz smoke run: each libFuzzer target for FUZZ_SECONDS (default 20);
#   6. the Swift suite again under AddressSanitizer (a build of its own in .build-asan).
#
#   bash scripts/test.sh --quick   the Swift suite only (1.), about a minute: the loop while working
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --quick ]; then
  bash scripts/deps.sh build
  swift build --build-tests
  swift test --skip-build
  exit 0
fi
# Each stage's wall time as it ends: CI's limit is spent by these.
stage_began=$SECONDS
stage() { echo "== $1: $((SECONDS - stage_began)) s" >&2; stage_began=$SECONDS; }
bash scripts/deps.sh test
stage "what the tests need installed"
# The face photos and models deps.sh put in .build: a face test that finds them missing fails here.
export GALLERYGEN_REQUIRE_FACES=1
swift build --build-tests
stage "the build"
swift test --skip-build
stage "the Swift suite"
# Faces found on four threads again on Debian's serial OpenBLAS, which is
# not safe to call from two threads at once: the engine must see it and
# describe one face at a time (docs/faces.md).
serial_blas=/usr/lib/x86_64-linux-gnu/openblas-serial
if [ -e "$serial_blas/libblas.so.3" ]; then
  GALLERYGEN_EXPECT_BLAS=openblas-serial LD_LIBRARY_PATH="$serial_blas" \
    swift test --skip-build --filter FaceFinderTests.testFindingOnEveryCoreAtOnceFindsTheSameFaces
  stage "faces on the serial OpenBLAS"
fi
# No bytecode or pytest cache in the clone: it stays as git left it.
PYTHONDONTWRITEBYTECODE=1 GALLERYGEN="$(swift build --show-bin-path)/gallerygen" \
  .build/venv/bin/python -m pytest -q -p no:cacheprovider Tests/browser Tests/scripts
stage "the browser and script tests"
bash scripts/slurm_check.sh "$(swift build --show-bin-path)/gallerygen"
stage "the Slurm check"
if [ "$(id -u)" -eq 0 ]; then
  bash scripts/deb_check.sh
else
  echo "deb check skipped: it makes a chroot (run as root)" >&2
fi
stage "the Debian package"
bash scripts/fuzz.sh "${FUZZ_SECONDS:-20}"
stage "the fuzz run"
# gold warns once per sanitizer entry point that it cannot export a local
# symbol (hundreds of lines, harmless): keep the build's output readable.
swift build --build-tests --sanitize=address --scratch-path .build-asan 2>&1 \
  | { grep -v "Cannot export local symbol '__asan_" || true; }
stage "the AddressSanitizer build"
LSAN_OPTIONS="suppressions=$(pwd)/Tests/lsan-suppressions.txt:print_suppressions=0" \
  swift test --skip-build --sanitize=address --scratch-path .build-asan 2>&1 \
  | { grep -v "Cannot export local symbol '__asan_" || true; }
stage "the Swift suite under AddressSanitizer"
