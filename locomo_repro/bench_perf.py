"""``python -m locomo_repro.bench_perf``: speed and memory of a benchmark command (``locomo_repro.bench.perf``)."""

from .bench.perf import main
from .entry import finish

if __name__ == "__main__":
    finish(main, "python -m locomo_repro.bench_perf")
