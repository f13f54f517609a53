#!/usr/bin/env bash
# Builds gallerygen (release) and generates the demo site from the sample
# library shipped in Examples/sample-library into ./demo-site.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh build
swift build -c release --static-swift-stdlib --product gallerygen
rm -rf demo-site
.build/release/gallerygen build Examples/sample-library --output demo-site --title "gallerygen demo"
cat <<MSG

The demo site is in $(pwd)/demo-site
Open demo-site/index.html in a browser, or look at it served, rebuilt as you edit the library:
  .build/release/gallerygen serve Examples/sample-library --output demo-site --title "gallerygen demo"    # then visit http://127.0.0.1:8080/
MSG
