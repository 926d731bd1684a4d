"""The memories the arms are built on: ``vector``, ``graph``, ``factor`` (scoped and span), ``path`` (the walk), ``oracle``.

A memory returns evidence and never reads it.  May import: ``go``, ``text``, ``data``, ``memory``."""
