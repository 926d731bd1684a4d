"""Scoring: the official metric (``metric``), predictions files (``predictions``), the cross-check with the
official scorer (``official``), ``-stats`` (``stats``), the golden files (``golden``), and which other system's
shape a file has (``shapes``, so that a scoring command sends it to ``import``).

The metric knows nothing of memories.  May import: ``go``, ``text``, ``data``."""
