#!/usr/bin/env bash
# Builds the libFuzzer targets (with AddressSanitizer) and runs each for
# SECONDS (default 30) from its seed corpus. A crash stops with libFuzzer's
# report and the crashing input saved in Fuzz/crashes/; make it a regression
# test before fixing it. Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../Fuzz"
seconds="${1:-30}"
flags=(-Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address)
bin="$(swift build "${flags[@]}" --show-bin-path)"
# SwiftPM also builds gallerygen's template-embedding plugin tool with these
# flags, and that tool (which has no fuzz entry point) cannot link with
# libFuzzer; it is not needed here, so only the fuzz binaries are checked.
for name in FuzzMetadata FuzzGIF FuzzJPEG FuzzHEIF FuzzJXL FuzzTIFF; do
  rm -f "$bin/$name"
  swift build --product "$name" "${flags[@]}" >/dev/null 2>&1 || true
  [ -x "$bin/$name" ] || { echo "could not build $name:" >&2; swift build --product "$name" "${flags[@]}" 2>&1 | grep -E "error" | head -5 >&2; exit 1; }
done
mkdir -p crashes
for target in metadata:FuzzMetadata gif:FuzzGIF jpeg:FuzzJPEG heif:FuzzHEIF jxl:FuzzJXL tiff:FuzzTIFF; do
  seeds="${target%%:*}"; name="${target##*:}"
  work="$(mktemp -d)"; cp Seeds/"$seeds"/* "$work"/ 2>/dev/null || true; rm -f "$work"/*.md
  echo "== $name for ${seconds}s"
  LSAN_OPTIONS="suppressions=$(pwd)/../Tests/lsan-suppressions.txt:print_suppressions=0" \
  "$bin/$name" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -artifact_prefix=crashes/ -print_final_stats=1 "$work" 2>&1 \
    | grep -E "^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR|SUMMARY)" || true
  rm -rf "$work"
  # (Not `ls a* b*`: under pipefail one unmatched pattern hid the others.)
  if [ -n "$(find crashes -name 'crash-*' -o -name 'leak-*' -o -name 'oom-*' -o -name 'timeout-*' | head -1)" ]; then
    echo "fuzzing found a problem in $name: see Fuzz/crashes/" >&2
    exit 1
  fi
done
