"""Entry point: python -m budgetdesk COMMAND ..."""

import sys

from budgetdesk.cli import main

if __name__ == "__main__":
    sys.exit(main())
