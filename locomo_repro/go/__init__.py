"""Go semantics the port must match: string functions (``strings``) and the JSON encoder (``json``).

The lowest layer: imports nothing of the kit."""
