"""``python -m locomo_repro.stats``: a predictions file read back, as the reference's -stats reads it (``locomo_repro.score.stats``)."""

from .score.stats import main

if __name__ == "__main__":
    raise SystemExit(main())
