"""benchsmith: author, validate and run hermetic benchmark tasks for coding agents."""

__version__ = "0.1.0"
