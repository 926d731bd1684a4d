"""Scoring: the official metric (``metric``), predictions files (``predictions``), the cross-check with the
official scorer (``official``), ``-stats`` (``stats``) and the golden files (``golden``).

The metric knows nothing of memories.  May import: ``go``, ``text``, ``data``."""
