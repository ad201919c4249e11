"""budgetdesk: a small household budgeting tool that keeps everything in one SQLite database.

Commands (python -m budgetdesk COMMAND --help): import, report, migrate, splits, export.
"""

__version__ = "1.5.0"
