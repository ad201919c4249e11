"""``python -m benchsmith`` runs the benchsmith command line."""

from benchsmith.entry import main

main()
