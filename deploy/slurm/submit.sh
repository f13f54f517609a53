#!/bin/bash
# Submits the array of media parts, the array of page parts that waits for
# all of them, and the last step that waits for the page parts.
#
#   SOURCE=/shared/photos OUTPUT=/shared/site bash deploy/slurm/submit.sh [--array=0-31]
#
# Extra arguments go to the media array's sbatch (more or fewer parts);
# PAGE_ARRAY (default 0-3) sets the page parts.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
: "${SOURCE:?set SOURCE}" "${OUTPUT:?set OUTPUT}"
export SOURCE OUTPUT
array=$(sbatch --parsable --export=ALL "$@" "$here/gallerygen-shards.sbatch")
array=${array%%;*}
pages=$(sbatch --parsable --export=ALL --array="${PAGE_ARRAY:-0-3}" --dependency=afterok:"$array" "$here/gallerygen-pages.sbatch")
pages=${pages%%;*}
site=$(sbatch --parsable --export=ALL --dependency=afterok:"$pages" "$here/gallerygen-site.sbatch")
echo "parts: job $array; pages: job $pages (runs when every part has succeeded); site: job ${site%%;*} (after every page part)"
