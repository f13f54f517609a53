"""Building gallerygen for a benchmark, and looking at what a build left:
its site, its state folder, the files it wrote."""
import hashlib
import os
import shutil
import subprocess

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


def tree_digests(folder):
    """(path, SHA-256) of every file under `folder`, one at a time, in the
    order of their paths' components (names sorted folder by folder): a
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
                with open(entry.path, "rb") as f:
                    yield path, hashlib.file_digest(f, "sha256").digest()
    yield from walk("")


def compare_trees(a, b, shown=20):
    """Every file of the trees `a` and `b` compared by digest, both walked
    side by side: (how many files are the same bytes in both, the first
    `shown` differences as text, how many differences in all)."""
    left, right = tree_digests(a), tree_digests(b)
    x, y = next(left, None), next(right, None)
    same, differences, count = 0, [], 0

    def differ(text):
        nonlocal count
        count += 1
        if len(differences) < shown:
            differences.append(text)
    while x is not None or y is not None:
        kx = x[0].split("/") if x is not None else None
        ky = y[0].split("/") if y is not None else None
        if y is None or (x is not None and kx < ky):
            differ(f"only in {a}: {x[0]}")
            x = next(left, None)
        elif x is None or ky < kx:
            differ(f"only in {b}: {y[0]}")
            y = next(right, None)
        else:
            if x[1] == y[1]:
                same += 1
            else:
                differ(f"different bytes: {x[0]}")
            x, y = next(left, None), next(right, None)
    return same, differences, count
