"""``python -m locomo_repro.bench_perf``: speed and memory of a benchmark command (``locomo_repro.bench.perf``)."""

from .bench.perf import main

if __name__ == "__main__":
    raise SystemExit(main())
