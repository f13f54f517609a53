"""What gallerygen's benchmarks share: timing a command, building the binary,
and making libraries of photos in-repo (a clone has no ../shared).

Tiny photos are made here byte by byte: a 16x16 baseline JPEG whose EXIF
(DateTimeOriginal, Make, Model) and first quantisation values are patched per
file, so every file is its own item with its own capture time, and a million
of them take seconds to write. No Pillow, ffmpeg or exiftool needed.
"""
import base64
import os
import shutil
import struct
import subprocess
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))

# A 16x16 baseline JPEG (made once with ffmpeg's testsrc2; its JFIF and
# comment segments removed): SOI, then one quantisation table.
TINY_JPEG = base64.b64decode(
    "/9j/2wBDAAgQEBMQExYWFhYWFhoYGhsbGxoaGhobGxsdHR0iIiIdHR0bGx0dICAiIiUmJSMjIiMm"
    "JigoKDAwLi44ODpFRVP/xABsAAEBAQAAAAAAAAAAAAAAAAAFAwcBAQEAAAAAAAAAAAAAAAAAAAAG"
    "EAABAwMDBAMBAQAAAAAAAAABERICIQMEURQAIjFBMlIzI2ETEQACAQMFAQEBAAAAAAAAAAABAhIR"
    "IQMxIkEABGFxBf/AABEIABAAEAMBIgACEQADEQD/2gAMAwEAAhEDEQA/AMuJvzuyhb8Bx9QAAFJM"
    "pUA/pPLYm8x7yQ6ZNE1/MxYh63FYNr3VFp34zjEGWVbR0pf4kQVDMQrIA6ppXTiNucBi7ZiXPs27"
    "i4QN17HfJnj3SqcZf63odnpIKzLtkTFWFZG67V00A+jtBn86yyqWLRGVf2tVKUo12Xi9uD3/2Q==")


def tiny_jpeg(number, when, title=None):
    """A distinct tiny JPEG: `number` decides its pixels (three quantisation
    values: 250**3 distinct photos), `when` (a datetime) its EXIF capture time."""
    body = bytearray(TINY_JPEG[2:])
    # DQT: marker (2), length (2), table id (1), then the values.
    assert body[0:2] == b"\xff\xdb"
    body[5] = 1 + number % 250
    body[6] = 1 + number // 250 % 250
    body[7] = 1 + number // 62500 % 250
    return b"\xff\xd8" + exif_segment(when, title) + bytes(body)


def exif_segment(when, title=None):
    """An APP1 Exif segment (little-endian TIFF) with Make, Model, an optional
    ImageDescription, and an Exif IFD holding DateTimeOriginal."""
    date = when.strftime("%Y:%m:%d %H:%M:%S").encode() + b"\0"
    entries0 = [(0x010F, b"Phone\0"), (0x0110, b"Phone 12\0")]
    if title:
        entries0.insert(0, (0x010E, title.encode() + b"\0"))
    # Layout: header (8), IFD0, its values, Exif IFD, its value.
    ifd0_size = 2 + 12 * (len(entries0) + 1) + 4
    values = b""
    value_offset = 8 + ifd0_size
    ifd0 = struct.pack("<H", len(entries0) + 1)
    for tag, data in entries0:
        if len(data) <= 4:
            ifd0 += struct.pack("<HHI", tag, 2, len(data)) + data.ljust(4, b"\0")
        else:
            ifd0 += struct.pack("<HHII", tag, 2, len(data), value_offset + len(values))
            values += data + (b"\0" if len(data) % 2 else b"")
    exif_ifd_offset = value_offset + len(values)
    ifd0 += struct.pack("<HHII", 0x8769, 4, 1, exif_ifd_offset) + struct.pack("<I", 0)
    exif_ifd = struct.pack("<H", 1) + struct.pack("<HHII", 0x9003, 2, len(date), exif_ifd_offset + 18) + struct.pack("<I", 0)
    tiff = b"II*\0" + struct.pack("<I", 8) + ifd0 + values + exif_ifd + date
    payload = b"Exif\0\0" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def build_binary(release=True):
    """Builds gallerygen (release, static runtime) and returns its path."""
    args = ["swift", "build", "--package-path", ROOT]
    if release:
        args += ["-c", "release", "--static-swift-stdlib"]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    out = subprocess.run(args + ["--show-bin-path"], check=True, capture_output=True, text=True).stdout.strip()
    return os.path.join(out, "gallerygen")


class Run:
    """One timed command: wall and CPU seconds, peak RSS, its output."""

    def __init__(self, wall, user, system, peak_mb, returncode, stdout, stderr):
        self.wall, self.user, self.system = wall, user, system
        self.cpu = user + system
        self.peak_mb = peak_mb
        self.returncode = returncode
        self.stdout, self.stderr = stdout, stderr


def run_timed(cmd, cwd=None, env=None, check=True):
    """Runs `cmd` as a child and measures it with wait4's resource usage
    (that child alone: its own peak RSS). Output goes through temporary
    files, so a chatty child never blocks on a full pipe."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        run = Run(wall, usage.ru_utime, usage.ru_stime, usage.ru_maxrss / 1024, proc.returncode,
                  out.read().decode(errors="replace"), err.read().decode(errors="replace"))
    if check and run.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, cmd))} failed ({run.returncode}):\n{run.stderr[-2000:]}")
    return run


def state_folder(out):
    """Where gallerygen keeps the build state of a build into `out` (beside it)."""
    out = os.path.abspath(out)
    return os.path.join(os.path.dirname(out), "." + os.path.basename(out) + ".gallerygen")


def remove_site(out):
    """Removes a built site and its build state, so the next build is cold."""
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(state_folder(out), ignore_errors=True)


def snapshot(folder):
    """path -> (size, mtime_ns) of every file under `folder`."""
    files = {}
    for dirpath, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            files[os.path.relpath(path, folder)] = (st.st_size, st.st_mtime_ns)
    return files


def changed_files(before, after):
    """How many files were written (new or changed) and removed between two snapshots."""
    written = sum(1 for path, stamp in after.items() if before.get(path) != stamp)
    removed = sum(1 for path in before if path not in after)
    return written, removed
