"""``python -m locomo_repro.reach``: evidence reach of the knowledge graph (``locomo_repro.bench.reach``)."""

from .bench.reach import main
from .entry import finish

if __name__ == "__main__":
    finish(main, "python -m locomo_repro.reach")
