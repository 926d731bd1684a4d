"""The experiment: arms built and asked, tallied and tabulated, sweeps (``experiment``); evidence reach
(``reach``); speed and memory (``perf``).

May import every layer below: ``go``, ``text``, ``data``, ``memory``, ``arms``, ``read``, ``score``."""
