"""budgetdesk: a small household budgeting tool that keeps everything in one SQLite database.

Commands (python -m budgetdesk COMMAND --help): import, report.
"""

__version__ = "1.4.0"
