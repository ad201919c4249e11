"""The runner: agent adapters, run records and harness comparison reports."""
