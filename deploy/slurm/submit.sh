#!/bin/bash
# Submits the array of parts and the page build that waits for all of them.
#
#   SOURCE=/shared/photos OUTPUT=/shared/site bash deploy/slurm/submit.sh [--array=0-31]
#
# Extra arguments go to the array's sbatch (more or fewer parts).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
: "${SOURCE:?set SOURCE}" "${OUTPUT:?set OUTPUT}"
export SOURCE OUTPUT
array=$(sbatch --parsable --export=ALL "$@" "$here/gallerygen-shards.sbatch")
array=${array%%;*}
pages=$(sbatch --parsable --export=ALL --dependency=afterok:"$array" "$here/gallerygen-pages.sbatch")
echo "parts: job $array; pages: job ${pages%%;*} (runs when every part has succeeded)"
