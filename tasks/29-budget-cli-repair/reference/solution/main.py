"""TODO: the reference solution, written from TASK.md alone (standard library only)."""
