"""The runner: agent adapters, run records and harness comparison reports.

Modules, in pipeline order (nothing is imported here, so the built-in adapters start fast):

* :mod:`benchsmith.run.protocol` -- the adapter protocol: ``BENCHSMITH_*`` variables, events;
* :mod:`benchsmith.run.adapters` -- ``--agent`` values (``replay``, ``nop``, ``command:...``);
* :mod:`benchsmith.run.builtin` -- the ``replay`` and ``nop`` adapters themselves;
* :mod:`benchsmith.run.invoke` -- one adapter action: events, time budget, process-group kill;
* :mod:`benchsmith.run.runner` -- one run: workspace, stages, compactions, judge, artifacts;
* :mod:`benchsmith.run.batch` -- many runs (``-j N``), reserved and recorded in runs.db;
* :mod:`benchsmith.run.records` -- the SQLite schema and writes;
* :mod:`benchsmith.run.report` / :mod:`benchsmith.run.present` -- aggregation and output.

Library entry points: :func:`benchsmith.run.batch.run_batch`,
:func:`benchsmith.run.runner.execute_run`, :func:`benchsmith.run.report.load_metrics` and
:func:`benchsmith.run.report.build_report`.
"""
