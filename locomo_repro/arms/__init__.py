"""The memories the arms are built on: ``vector``, ``graph``, ``factor`` (scoped and span), ``path`` (the walk), ``oracle``;
the plug-in protocol (``plugin``) and ``bm25``, a plug-in of it (the bm25 extra).

A memory returns evidence and never reads it.  May import: ``go``, ``text``, ``data``, ``memory``."""
