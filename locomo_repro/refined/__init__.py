"""LoCoMo-Refined support: its public file formats, its lexical scores and its LLM judge.

Modules: ``export`` (public files from a LoCoMo-format dataset), ``predict``
(answering arms and predictions files), ``lexical`` (token F1, BLEU-1),
``score`` (prediction clean-up, merging, best-of candidates), ``summary``
(summary JSON and Markdown), ``judge`` (the judge over ``locomo_repro.read.chat``).
Command line: ``locomo-repro refined {export,predict,score,judge}``.
"""
