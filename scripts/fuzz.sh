#!/usr/bin/env bash
# Builds the libFuzzer targets (with AddressSanitizer) and runs each for
# SECONDS (default 30) from its seed corpus. A crash stops with libFuzzer's
# report and the crashing input saved in Fuzz/crashes/; make it a regression
# test before fixing it. Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../Fuzz"
seconds="${1:-30}"
swift build -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address 2>&1 | tail -1
bin="$(swift build -Xswiftc -sanitize=fuzzer,address --show-bin-path)"
mkdir -p crashes
for target in metadata:FuzzMetadata gif:FuzzGIF jpeg:FuzzJPEG; do
  seeds="${target%%:*}"; name="${target##*:}"
  work="$(mktemp -d)"; cp Seeds/"$seeds"/* "$work"/ 2>/dev/null || true; rm -f "$work"/*.md
  echo "== $name for ${seconds}s"
  "$bin/$name" -max_total_time="$seconds" -rss_limit_mb=2048 -artifact_prefix=crashes/ -print_final_stats=1 "$work" 2>&1 \
    | grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR|SUMMARY)" || true
  rm -rf "$work"
  if ls crashes/crash-* crashes/leak-* crashes/oom-* 2>/dev/null | grep -q .; then
    echo "fuzzing found a problem in $name: see Fuzz/crashes/" >&2
    exit 1
  fi
done
