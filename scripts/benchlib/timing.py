"""The one timer of every benchmark: wall and CPU seconds and peak memory of a
command and the children it waits for, and how paired runs are summarised."""
import os
import subprocess
import tempfile
import time


class Run:
    """One timed command: wall and CPU seconds, peak RSS, its output."""

    def __init__(self, wall, user, system, peak_mb, returncode, stdout, stderr):
        self.wall, self.user, self.system = wall, user, system
        self.cpu = user + system
        self.peak_mb = peak_mb
        self.returncode = returncode
        self.stdout, self.stderr = stdout, stderr

    @property
    def output(self):
        return self.stdout + self.stderr


def run_timed(cmd, cwd=None, env=None, check=True, input=None, preexec_fn=None):
    """Runs `cmd` as a child and measures it with wait4's resource usage: the
    child and every descendant it waited for (xargs' workers count), peak RSS
    the largest of them. Output goes through temporary files, so a chatty
    child never blocks on a full pipe; `input` (text) is its standard input."""
    with tempfile.TemporaryFile() as stdin, tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        if input is not None:
            stdin.write(input.encode())
            stdin.seek(0)
        started = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=stdin if input is not None else subprocess.DEVNULL,
                                stdout=out, stderr=err, preexec_fn=preexec_fn)
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


def median_pair(paired):
    """The pair (ratio first) with the median ratio, and every ratio in order.
    This machine's speed drifts from one half-minute to the next, so two
    runs are compared only when taken side by side, several times."""
    ordered = sorted(paired, key=lambda p: p[0])
    return ordered[len(ordered) // 2], [p[0] for p in ordered]


def spread(ratios):
    """' (median of N pairs: a / b / c)', or nothing for a single pair."""
    return f" (median of {len(ratios)} pairs: {' / '.join(f'{r:.2f}' for r in ratios)})" if len(ratios) > 1 else ""


def table_row(name, count, run, unit="photos"):
    """A Markdown row: name, count, items/s, wall, CPU, CPU/wall, peak MB."""
    rate = count / run.wall if run.wall > 0 else float("inf")
    return (f"| {name} | {count} | {rate:.1f} | {run.wall:.2f} | {run.cpu:.2f} | "
            f"{run.cpu / run.wall if run.wall else 0:.2f} | {run.peak_mb:.0f} |")


TABLE_HEADER = ("| run | count | per s | wall s | CPU s | CPU/wall | peak RSS MB |\n"
                "| --- | --- | --- | --- | --- | --- | --- |")


def serial(runs):
    """Runs made one after another, as one: times added, the larger peak."""
    runs = list(runs)
    return Run(sum(r.wall for r in runs), sum(r.user for r in runs), sum(r.system for r in runs),
               max((r.peak_mb for r in runs), default=0), 0, "", "")
