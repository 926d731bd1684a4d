"""The dataset: locating, fetching and reading locomo10.json (``dataset``); questions about time (``timewords``);
the files the kit ships inside the package: manifests, golden files, the publication (``shipped``).

May import: ``go``, ``text``."""
