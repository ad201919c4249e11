"""The runner: agent adapters, run records and harness comparison reports.

The lifecycle of one run (spec section 5) lives once, in the stdlib runner core
:mod:`benchsmith.runtime.run`, which ``benchsmith build`` also copies to every corpus root as
the lean ``run.py``. This package is the SDK's front end over it. Modules, in pipeline order
(nothing is imported here, so the built-in adapters start fast):

* :mod:`benchsmith.running.protocol` -- the adapter protocol (the core's definition, named);
* :mod:`benchsmith.running.adapters` -- ``--agent`` values (``replay``, ``nop``, ``command:...``);
* :mod:`benchsmith.running.builtin` -- the ``replay`` and ``nop`` adapters themselves;
* :mod:`benchsmith.running.invoke` -- one adapter action (the core's);
* :mod:`benchsmith.running.tasks` -- a task as the runner sees it: its scenario.json;
* :mod:`benchsmith.running.runner` -- one run: the core's lifecycle plus the SDK's judge and
  artifacts (archive, transcript, run.json);
* :mod:`benchsmith.running.batch` -- many runs (``-j N``), reserved and recorded in runs.db;
* :mod:`benchsmith.running.records` -- the SQLite schema and writes;
* :mod:`benchsmith.running.report` / :mod:`benchsmith.running.present` -- aggregation and output.

Library entry points: :func:`benchsmith.running.batch.run_batch`,
:func:`benchsmith.running.runner.execute_run`, :func:`benchsmith.running.report.load_metrics` and
:func:`benchsmith.running.report.build_report`.
"""
