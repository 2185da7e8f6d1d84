"""``python -m bench [--quick]``: every benchmark, one table, ``bench/report.md``."""

import sys

from bench.runner import main

sys.exit(main())
