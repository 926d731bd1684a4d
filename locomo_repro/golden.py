"""``python -m locomo_repro.golden``: the golden files of the official metric, rebuilt (``locomo_repro.score.golden``)."""

from .score.golden import main
from .entry import finish

if __name__ == "__main__":
    finish(main, "python -m locomo_repro.golden")
