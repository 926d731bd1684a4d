"""``python -m locomo_repro.reach``: evidence reach of the knowledge graph (``locomo_repro.bench.reach``)."""

from .bench.reach import main

if __name__ == "__main__":
    raise SystemExit(main())
