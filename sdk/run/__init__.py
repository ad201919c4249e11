"""The runner: agent adapters, run records and harness comparison reports.

Modules, in pipeline order (nothing is imported here, so the built-in adapters start fast):

* :mod:`sdk.run.protocol` -- the adapter protocol: ``BENCHSMITH_*`` variables, event lines;
* :mod:`sdk.run.adapters` -- ``--agent`` values (``replay``, ``nop``, ``command:...``);
* :mod:`sdk.run.builtin` -- the ``replay`` and ``nop`` adapters themselves;
* :mod:`sdk.run.invoke` -- one adapter action: events, time budget, process-group kill;
* :mod:`sdk.run.runner` -- one run: workspace, stages, compactions, judge, artifacts;
* :mod:`sdk.run.batch` -- many runs (``-j N``), reserved and recorded in runs.db;
* :mod:`sdk.run.records` -- the SQLite schema and writes;
* :mod:`sdk.run.report` / :mod:`sdk.run.render` -- aggregation and text / JSON / HTML.

Library entry points: :func:`sdk.run.batch.run_batch`, :func:`sdk.run.runner.execute_run`,
:func:`sdk.run.report.load_metrics` and :func:`sdk.run.report.build_report`.
"""
