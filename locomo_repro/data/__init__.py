"""The dataset: locating, fetching and reading locomo10.json (``dataset``); questions about time (``timewords``).

May import: ``go``, ``text``."""
