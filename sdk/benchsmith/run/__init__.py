"""The runner: agent adapters, run records and harness comparison reports.

The lifecycle of one run (spec section 5) lives once, in the stdlib runner core
:mod:`benchsmith.runtime.run`, which ``benchsmith build`` also copies to every corpus root as
the lean ``run.py``. This package is the SDK's front end over it. Modules, in pipeline order
(nothing is imported here, so the built-in adapters start fast):

* :mod:`benchsmith.run.protocol` -- the adapter protocol (the core's definition, named);
* :mod:`benchsmith.run.adapters` -- ``--agent`` values (``replay``, ``nop``, ``command:...``);
* :mod:`benchsmith.run.builtin` -- the ``replay`` and ``nop`` adapters themselves;
* :mod:`benchsmith.run.invoke` -- one adapter action (the core's);
* :mod:`benchsmith.run.tasks` -- a task as the runner sees it: its scenario.json;
* :mod:`benchsmith.run.runner` -- one run: the core's lifecycle plus the SDK's judge and
  artifacts (archive, transcript, run.json);
* :mod:`benchsmith.run.batch` -- many runs (``-j N``), reserved and recorded in runs.db;
* :mod:`benchsmith.run.records` -- the SQLite schema and writes;
* :mod:`benchsmith.run.report` / :mod:`benchsmith.run.present` -- aggregation and output.

Library entry points: :func:`benchsmith.run.batch.run_batch`,
:func:`benchsmith.run.runner.execute_run`, :func:`benchsmith.run.report.load_metrics` and
:func:`benchsmith.run.report.build_report`.
"""
