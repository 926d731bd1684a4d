"""The one-page HTML report: claims at a glance, the floor trade-off, per-category intervals, signatures.

Layer: above ``claims`` (it shows their verdicts); the command line reaches it
only by a lazy dispatch (``locomo-repro report``).  ``figures`` computes every
number with the kit's machinery and needs no plotting library; ``plots``
draws them with matplotlib (the optional ``report`` extra); ``page`` writes the
HTML; ``cli`` is the command.
"""
