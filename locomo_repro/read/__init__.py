"""The readers: the deterministic extractive reader (``reader``), the model reader (``model``) over an
OpenAI-compatible chat client (``chat``), and its endpoint as a run names it before asking (``endpoint``).

A reader sees the question, the cites and the confidence, never the arm or the category.
May import: ``go``, ``text``, ``data``, ``memory``."""
