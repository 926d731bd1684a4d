"""The memories' machinery: what a memory returns (``cite``), term weights (``terms``), the vector store (``store``),
the knowledge graph (``kg``), the rule engine (``reason``), the dialogue reader (``talk``) and coreference (``coref``).

May import: ``go``, ``text``, ``data``."""
