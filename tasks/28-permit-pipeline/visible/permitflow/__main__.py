"""Entry point: ``python -m permitflow COMMAND ...``."""

import sys

from permitflow.cli import main

if __name__ == "__main__":
    sys.exit(main())
