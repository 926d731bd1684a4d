"""``python -m locomo_repro.official``: the cross-check with the official LoCoMo scorer (``locomo_repro.score.official``)."""

from .score.official import main
from .entry import finish

if __name__ == "__main__":
    finish(main, "python -m locomo_repro.official")
