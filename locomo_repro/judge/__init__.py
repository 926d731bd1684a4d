"""LLM judges as a measured instrument: one verdict as data (``verdicts``), the readers of every judged file
the kit meets, what a set of verdicts measures, and the one machinery that asks a judge over an
OpenAI-compatible endpoint.

A judge reads replies and never runs an arm.  May import: ``go``, ``text``, ``data``, ``read``, ``score``."""
