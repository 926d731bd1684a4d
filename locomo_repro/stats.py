"""``python -m locomo_repro.stats``: a predictions file read back, as the reference's -stats reads it (``locomo_repro.score.stats``)."""

from .score.stats import main
from .entry import finish

if __name__ == "__main__":
    finish(main, "python -m locomo_repro.stats")
