"""The tools gallerygen is measured against, found where a user would have
them: on PATH (Debian packages) or in the repository's virtual environment
(PyPI: sigal). A missing peer is named with its install line, never fatal."""
import os
import shutil

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# name -> how to get it on Debian 12.
INSTALL = {
    "sigal": "python3 -m venv .build/venv && .build/venv/bin/pip install sigal",
    "vipsthumbnail": "apt install libvips-tools",
    "heif-enc": "apt install libheif-examples",
    "heif-convert": "apt install libheif-examples",
    "simple_dcraw": "apt install libraw-bin",
    "dcraw_emu": "apt install libraw-bin",
    "ffmpeg": "apt install ffmpeg",
    "exiftool": "apt install libimage-exiftool-perl",
}


def find(name, quiet=False):
    """The path of peer `name`, or None (saying how to install it)."""
    found = shutil.which(name) or shutil.which(name, path=os.path.join(ROOT, ".build", "venv", "bin"))
    if not found and not quiet:
        print(f"({name} not found: {INSTALL.get(name, 'not installed')}; its comparison is left out)", flush=True)
    return found
