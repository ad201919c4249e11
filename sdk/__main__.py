"""``python -m sdk`` runs the benchsmith command line."""

from sdk.cli import main

main()
