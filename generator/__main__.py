"""Allow ``python -m generator``: identical to the ``toolgen`` console script."""

import sys

from .cli import main

sys.exit(main())
