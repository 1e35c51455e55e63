"""`python -m factstore` runs the command line."""

import sys

from factstore.cli import main

sys.exit(main())
