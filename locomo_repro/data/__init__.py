"""The dataset: locating, fetching and reading locomo10.json (``dataset``); questions about time (``timewords``);
the files the kit ships inside the package: manifests, golden files, the publication (``shipped``);
the kit's one writer (``atomic``) and its one rule for threads and worker processes (``stop``).

May import: ``go``, ``text``."""
