"""locomo-repro: the LoCoMo benchmark of hanzoai/semantic bench/locomo, reproduced in Python."""

__version__ = "0.1.0"
