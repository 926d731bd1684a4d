"""``locomo-repro report``: the one-page HTML report (see ``locomo_repro.report.cli``)."""

import sys

from .cli import main

sys.exit(main())
