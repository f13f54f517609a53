"""Building gallerygen for a benchmark, and looking at what a build left:
its site, its state folder, the files it wrote."""
import hashlib
import os
import shutil
import subprocess
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def build_binary(release=True):
    """Builds gallerygen (release, static runtime) and returns its path."""
    args = ["swift", "build", "--package-path", ROOT]
    if release:
        args += ["-c", "release", "--static-swift-stdlib"]
    subprocess.run(args + ["--product", "gallerygen"], check=True, stdout=subprocess.DEVNULL)
    out = subprocess.run(args + ["--show-bin-path"], check=True, capture_output=True, text=True).stdout.strip()
    return os.path.join(out, "gallerygen")


def binary_under_test():
    """The gallerygen the tests run: $GALLERYGEN, else this checkout's debug build."""
    path = os.environ.get("GALLERYGEN")
    if path:
        return path
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True)
    return os.path.join(out.stdout.strip(), "gallerygen")


def state_folder(out):
    """Where gallerygen keeps the build state of a build into `out` (beside it)."""
    out = os.path.abspath(out)
    return os.path.join(os.path.dirname(out), "." + os.path.basename(out) + ".gallerygen")


def remove_site(out):
    """Removes a built site and its build state, so the next build is cold."""
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(state_folder(out), ignore_errors=True)


def _walk(folder, leaf):
    """(path, leaf(entry)) of every file under `folder`, one at a time, in
    the order of their paths' components (names sorted folder by folder): a
    tree of millions of files is walked, never held."""
    def walk(relative):
        where = os.path.join(folder, relative) if relative else folder
        with os.scandir(where) as entries:
            entries = sorted(entries, key=lambda entry: entry.name)
        for entry in entries:
            path = f"{relative}/{entry.name}" if relative else entry.name
            if entry.is_dir(follow_symlinks=False):
                yield from walk(path)
            else:
                yield path, leaf(entry)
    if os.path.isdir(folder):
        yield from walk("")


def _merged(left, right):
    """Two walks side by side: (path, left's value or None, right's or None) for every path of either."""
    x, y = next(left, None), next(right, None)
    while x is not None or y is not None:
        kx = x[0].split("/") if x is not None else None
        ky = y[0].split("/") if y is not None else None
        if y is None or (x is not None and kx < ky):
            yield x[0], x[1], None
            x = next(left, None)
        elif x is None or ky < kx:
            yield y[0], None, y[1]
            y = next(right, None)
        else:
            yield x[0], x[1], y[1]
            x, y = next(left, None), next(right, None)


class Snapshot:
    """Every file under a folder with its size and modification time, kept
    in a temporary file, not in memory: a site of a million items is three
    million files, and held as a dict they made this process 1 GB, which a
    child forked from it then counted as its own peak RSS (Linux keeps the
    forking process's high-water mark in the child's `ru_maxrss`)."""

    def __init__(self, folder):
        self.file = tempfile.NamedTemporaryFile()
        for path, stamp in _walk(folder, lambda entry: entry.stat(follow_symlinks=False)):
            self.file.write(f"{path}\0{stamp.st_size}\0{stamp.st_mtime_ns}\n".encode(errors="surrogateescape"))
        self.file.flush()

    def entries(self):
        """(path, (size, mtime_ns)), in the walk's order (each call reads the file anew)."""
        with open(self.file.name, "rb") as f:
            for line in f:
                path, size, mtime = line.decode(errors="surrogateescape").rstrip("\n").split("\0")
                yield path, (int(size), int(mtime))


def snapshot(folder):
    """Every file under `folder` (none if it does not exist), with its size and time (`Snapshot`)."""
    return Snapshot(folder)


def changed_files(before, after):
    """How many files were written (new or changed) and removed between two
    snapshots, and the paths of the new ones."""
    written, removed, new = 0, 0, []
    for path, old, now in _merged(before.entries(), after.entries()):
        if now is None:
            removed += 1
        elif old != now:
            written += 1
            if old is None:
                new.append(path)
    return written, removed, new


def tree_digests(folder):
    """(path, SHA-256) of every file under `folder`, one at a time, in the
    order of their paths' components (`_walk`)."""
    def digest(entry):
        with open(entry.path, "rb") as f:
            return hashlib.file_digest(f, "sha256").digest()
    yield from _walk(folder, digest)


def compare_trees(a, b, shown=20):
    """Every file of the trees `a` and `b` compared by digest, both walked
    side by side: (how many files are the same bytes in both, the first
    `shown` differences as text, how many differences in all)."""
    same, differences, count = 0, [], 0
    for path, x, y in _merged(tree_digests(a), tree_digests(b)):
        if x == y:
            same += 1
            continue
        count += 1
        if len(differences) < shown:
            differences.append(f"only in {b}: {path}" if x is None else f"only in {a}: {path}" if y is None else f"different bytes: {path}")
    return same, differences, count
