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
Open demo-site/index.html in a browser, or serve it:
  python3 -m http.server --directory demo-site 8000    # then visit http://127.0.0.1:8000/
MSG
