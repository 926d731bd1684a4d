"""Speed and memory of a benchmark command, measured as ``/usr/bin/time -v`` measures it.

``python -m locomo_repro.bench_perf [--runs N] [-- FLAGS…]`` runs
``python -m locomo_repro FLAGS…`` (the default table when no flags are given)
in child processes, reads each child's resource usage (user + system CPU
seconds and peak resident memory) from ``wait4``, and prints the median and
the best run.  The reference Go benchmark takes 3.45 s CPU and 252 MiB for
the default table on the 2-core machine the README's figures come from.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Usage:
    """One run: CPU seconds (user + system), wall seconds, peak resident set in MiB."""

    cpu: float
    wall: float
    rss_mib: float


def measure(flags: Sequence[str]) -> Usage:
    """Run the benchmark once with ``flags`` in a child process and account for it.

    The child's stderr goes to a temporary file (a pipe could fill and stall
    the child while ``wait4`` waits); when the child fails, its last stderr
    line is part of the error.
    """
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-m", "locomo_repro", *flags], stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            err.seek(0)
            lines = err.read().decode("utf-8", "replace").splitlines()
            last = next((line.strip() for line in reversed(lines) if line.strip()), "")
            raise SystemExit(f"locomo-repro {' '.join(flags)} exited with status {child.returncode}"
                             + (f": {last}" if last else ""))
    return Usage(usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m locomo_repro.bench_perf", description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=5, help="how many runs (default 5)")
    p.add_argument("flags", nargs=argparse.REMAINDER, help="flags for locomo-repro, after --")
    args = p.parse_args(argv)
    if args.runs < 1:
        print(f"{p.prog}: error: --runs must be at least 1, got {args.runs}", file=sys.stderr)
        return 2
    flags = [f for f in args.flags if f != "--"]
    runs = [measure(flags) for _ in range(args.runs)]
    label = " ".join(["locomo-repro", *flags])
    print(f"{label}: {len(runs)} runs")
    for name, pick in (("median", statistics.median), ("best", min)):
        print(
            f"  {name:<6}  cpu {pick(r.cpu for r in runs):5.2f} s   wall {pick(r.wall for r in runs):5.2f} s   "
            f"peak rss {pick(r.rss_mib for r in runs):6.1f} MiB"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
