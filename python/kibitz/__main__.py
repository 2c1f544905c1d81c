"""``python -m kibitz``: the same as the ``kibitz`` command."""

import sys

from kibitz.cli import main

sys.exit(main())
