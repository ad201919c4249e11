"""``python -m benchsmith`` runs the benchsmith command line."""

from benchsmith.cli import main

main()
