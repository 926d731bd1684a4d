"""Text: the official scorer's normalising and stemming, words and sentences (``reduce``), the word lists (``lexicon``).

May import: ``go``."""
