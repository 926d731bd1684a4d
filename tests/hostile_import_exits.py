"""A plug-in module whose import ends the process, as a script's would."""

import sys

sys.exit("this module is a script")
