"""Building gallerygen for a benchmark, and looking at what a build left:
its site, its state folder, the files it wrote."""
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
