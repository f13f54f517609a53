"""Runs benchmark steps within a memory limit, as a small NAS or VPS gives
them: the kernel's memory controller (a cgroup of our own, v2 or v1, root
only) holds the command and every child to `limit` bytes, swap included;
a step over it is killed by the kernel, as it would be there. Without a
writable cgroup it says so and how to get one, instead of measuring
without the limit."""
import os
import re

ROOT = "/sys/fs/cgroup"


def parse_size(text):
    """`1G`, `512M`, `750000K` or bytes."""
    m = re.fullmatch(r"(\d+)([KMG]?)B?", text.strip().upper())
    if not m:
        raise ValueError(f"not a size: {text!r} (e.g. 1G, 512M)")
    return int(m.group(1)) * {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[m.group(2)]


class MemoryLimit:
    """A cgroup limited to `limit` bytes while the `with` lasts; `enter` is
    given as `preexec_fn` to each child that must live in it."""

    def __init__(self, limit):
        self.limit = limit
        name = f"gallerygen-bench-{os.getpid()}"
        if os.path.exists(os.path.join(ROOT, "cgroup.controllers")):  # v2, unified
            self.folder, self.v2 = os.path.join(ROOT, name), True
        else:
            self.folder, self.v2 = os.path.join(ROOT, "memory", name), False

    def __enter__(self):
        try:
            os.mkdir(self.folder)
            if self.v2:
                self._write("memory.max", self.limit)
                if os.path.exists(os.path.join(self.folder, "memory.swap.max")):
                    self._write("memory.swap.max", 0)
            else:
                self._write("memory.limit_in_bytes", self.limit)
                if os.path.exists(os.path.join(self.folder, "memory.memsw.limit_in_bytes")):
                    self._write("memory.memsw.limit_in_bytes", self.limit)
        except OSError as error:
            self._remove()
            raise SystemExit(f"--memory-limit needs a memory cgroup of its own ({self.folder}: {error.strerror}); "
                             "run as root on a machine with the memory controller (cgroup v1 or v2)") from None
        return self

    def __exit__(self, *exc):
        self._remove()

    def enter(self):
        """In the child, before exec: move it into the cgroup."""
        with open(os.path.join(self.folder, "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))

    def killed(self, run):
        """Whether `run` was killed (SIGKILL): what the kernel does at the limit."""
        return run.returncode == -9

    def _write(self, name, value):
        with open(os.path.join(self.folder, name), "w") as f:
            f.write(str(value))

    def _remove(self):
        try:
            os.rmdir(self.folder)
        except OSError:
            pass
