"""How a test gets its evaluation: the engine's answer for its pair, with the session's jury
rules applied, its record shipped to the controller once, and a clear failure when a call
failed. The heavy side of the fixtures (imported by their bodies, not to load the plugin)."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import json

import pytest

from pytest_rwe.engine import Engine, Evaluation
from pytest_rwe.plugin.asserts import fail_test
from pytest_rwe.plugin.records import PROGRESS_PROPERTY, RECORD_PROPERTY, evaluation_record
from pytest_rwe.plugin.session import RweCase, get_session, jury_rules
from pytest_rwe.plugin.workers import is_worker, process_name
from pytest_rwe.providers.families import same_family_jurors
from pytest_rwe.redact import redact_deep
from pytest_rwe.rules.diagnostics import claim_diagnostics, juror_findings
from pytest_rwe.study import Study

WAIT_NOTE_S = 30.0  # a test waiting longer than this for its pair says what it waits for


def evaluate_case(request: pytest.FixtureRequest, rwe_case: RweCase, rwe_study: Study,
                  rwe_engine: Engine) -> Evaluation:
    """The body of the ``rwe_evaluation`` fixture: evaluate, ship the record, fail clearly."""
    session = get_session(request.config)
    evaluation = evaluate(rwe_engine, request.config, rwe_case, rwe_study, rwe_case.repeat)
    if rwe_case.id not in session.shipped:
        # Once per pair and process: the controller keeps the first copy it gets, and every
        # test report keeps its user_properties to the end of the run (memory on big suites).
        claims, findings = evaluation.claims, None  # read by the engine as the jury worked
        if evaluation.summary is not None:
            if claims is None:
                claims = claim_diagnostics(rwe_study, evaluation.summary.text)
            if evaluation.verdict is not None:
                findings = juror_findings(rwe_study, evaluation.summary.text, evaluation.verdict,
                                          evaluation.rules_findings)
        jury = session.settings.engine.jury
        record = evaluation_record(evaluation, session.settings.thresholds, claims, findings)
        if rwe_case.variant is not None:  # "model" is the arm, model+variant
            record["variant"], record["variant_of"] = rwe_case.variant, rwe_case.model
        excluded = jury_rules(request.config).excluded(rwe_case.model, jury)
        record["excluded_jurors"] = list(excluded)
        record["self_jurors"] = [j for j in same_family_jurors(rwe_case.model, jury)
                                 if j not in excluded]
        # JSON text, not a dict: xdist can only ship primitives on user_properties. Redacted
        # here: user_properties also reach junit XML, and a model's URL may hold a password.
        request.node.user_properties.append((RECORD_PROPERTY, json.dumps(redact_deep(record))))
        session.shipped.add(rwe_case.id)
    progress = rwe_engine.progress_snapshot() | {
        "process": process_name(request.config),
        "total": len(session.selected),
    }
    request.node.user_properties.append((PROGRESS_PROPERTY, json.dumps(progress)))
    if evaluation.summary is None:
        fail_test(f"{rwe_case.arm} could not summarize {rwe_study.id}: {evaluation.error}"
                  + _tracebacks(evaluation))
    if evaluation.verdict is None:
        fail_test(f"the jury could not judge {rwe_case.arm}'s summary of {rwe_study.id}: "
                  f"{evaluation.error}")
    errors = evaluation.juror_errors
    if errors:
        # A juror that could not be asked would silently shrink the jury: the pair's tests
        # error (its answers are still in the report, counted as errors).
        lines = "".join(f"\n  - {s.juror} on {s.criterion}: {s.error}" for s in errors)
        fail_test(f"the jury could not judge {rwe_case.arm}'s summary of {rwe_study.id}: "
                  f"{len(errors)} juror call(s) failed{lines}" + _tracebacks(evaluation))
    return evaluation


def _tracebacks(evaluation: Evaluation) -> str:
    return "".join(f"\n\n{bug.rstrip()}" for bug in evaluation.bugs)


def _wait(engine: Engine, future: concurrent.futures.Future[Evaluation], config: pytest.Config,
          what: str) -> Evaluation:
    """The evaluation; a test that waits long says so now and then, naming what it waits
    for (only where there is a terminal: a plain run, not an xdist worker)."""
    reporter = (None if is_worker(config)
                else config.pluginmanager.get_plugin("terminalreporter"))
    while True:
        try:
            return future.result(timeout=WAIT_NOTE_S if reporter is not None else None)
        except concurrent.futures.TimeoutError:
            reporter.ensure_newline()  # type: ignore[union-attr]
            reporter.write_line(f"rwe: still waiting for {what}: "  # type: ignore[union-attr]
                                f"{engine.status()}")


def evaluate(engine: Engine, config: pytest.Config, case: RweCase, study: Study,
             repeat: int) -> Evaluation:
    """The engine's evaluation with the session's jury rules applied to its verdict."""
    evaluation = _wait(engine, engine.submit(case.arm, study, repeat), config,
                       f"{case.arm}'s summary of {study.id}")
    if evaluation.verdict is None:
        return evaluation
    # self-judging is about the model, whatever prompt variant it ran with
    verdict = jury_rules(config).apply(evaluation.verdict, case.model,
                                       get_session(config).settings.engine.jury)
    return dataclasses.replace(evaluation, verdict=verdict)
