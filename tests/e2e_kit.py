"""Building blocks for pytester runs of the installed plugin."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pytest_rwe.testing.fake_server import FakeServer

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "cases" / "studies"

# a cohort with p-values, a case series, a cross-sectional study and a LEGEND cohort
STUDIES = (
    "trinetx_cud_pancreatic_cancer_chronic_pancreatitis",
    "iscgm_t2d_basal_or_oral_therapy_case_series",
    "hospital_shift_work_metabolic_syndrome",
    "legend_htn_ace_inhibitors_vs_arbs_cardiovascular",
)

# A fixed slice of the suite for end-to-end figures that must not move as the suite grows:
# the 39 LEGEND-HTN studies and the first seven published studies the suite had.
FIXED_SUITE = tuple(sorted(
    [p.stem for p in SUITE.glob("legend_htn_*.json")] + [
        "brfss_recent_cannabis_use_myocardial_infarction",
        "covid_hcq_alone_vs_neither_new_york",
        "covid_hcq_azithro_vs_no_hcq_veterans",
        "hospital_shift_work_metabolic_syndrome",
        "iscgm_t2d_basal_or_oral_therapy_case_series",
        "rtcgm_initiation_insulin_treated_t2d_hba1c_below_8",
        "trinetx_cud_pancreatic_cancer_chronic_pancreatitis",
    ]))

SUITE_TEST = """
import pytest
from pytest_rwe import CRITERIA
from pytest_rwe import assert_criterion


@pytest.mark.parametrize("criterion", CRITERIA)
def test_summary(rwe_verdict, rwe_summary, rwe_thresholds, criterion):
    assert_criterion(rwe_verdict, criterion, rwe_thresholds[criterion], rwe_summary.text)
"""


def make_suite(
    pytester: pytest.Pytester,
    *,
    studies: tuple[str, ...] = STUDIES,
    models: str = "builtin/template",
    jury: str = "builtin/rules",
    extra_ini: str = "",
    test: str = SUITE_TEST,
) -> Path:
    """A project with a few suite studies, an ini and the suite's test file."""
    folder = pytester.path / "cases" / "studies"
    folder.mkdir(parents=True)
    for study in studies:
        shutil.copy(SUITE / f"{study}.json", folder / f"{study}.json")
    pytester.makeini(
        "[pytest]\n"
        f"rwe_models = {models}\n"
        f"rwe_jury = {jury}\n"
        "rwe_cases = cases/studies\n"
        f"rwe_store = {pytester.path / 'store'}\n"
        + extra_ini
    )
    pytester.makepyfile(test_suite=test)
    return folder


# A conftest that keeps every record the controller aggregates (via the plugin's hook).
RECORDER = """
import json


def pytest_rwe_record(config, record):
    with open(config.rootpath / "records.jsonl", "a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\\n")
"""


def read_records(pytester: pytest.Pytester) -> list[dict[str, object]]:
    """The records the controller aggregated in the last run, one per (model, study, repeat)."""
    path = pytester.path / "records.jsonl"
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    path.unlink()
    return [json.loads(line) for line in lines]


def write_study(folder: Path, name: str, data: object) -> Path:
    path = folder / f"{name}.json"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def xdist_args(workers: int) -> list[str]:
    return ["-n", str(workers)] if workers else []


FAKE_KEYS = {
    "OPENAI_API_KEY": "sk-test-openai-0123456789abcdef",
    "ANTHROPIC_API_KEY": "sk-ant-test-0123456789abcdef",
    "GEMINI_API_KEY": "AIzaTest0123456789abcdefghijklmnopqrstu",
}
VENDOR_MODEL = "openai/gpt-4.1-mini"
VENDOR_JURY = "openai/o4-mini,anthropic/claude-sonnet-4-20250514,google/gemini-2.5-pro"


def summarizing_responder(studies: Path) -> Callable[[str, str, str], str | None]:
    """A fake-server responder that answers a summarization prompt with the builtin summary.

    Judge prompts get the server's default (a passing verdict).
    """
    from pytest_rwe.rules.summarizer import summarize
    from pytest_rwe.study import load_folder

    by_question = {
        load.study.question: summarize(load.study)
        for load in load_folder(studies) if load.study is not None
    }

    def respond(provider: str, model: str, prompt: str) -> str | None:
        if "<<<SUMMARY" in prompt:
            return None
        for question, summary in by_question.items():
            if question in prompt:
                return summary
        return None

    return respond


@contextmanager
def vendor_suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, *,
                 latency_s: float) -> Iterator[FakeServer]:
    """A suite of the vendor model and jury, the recorder conftest, and a fake server the
    SDKs reach through their own base-URL variables (with fake keys)."""
    from pytest_rwe.testing.fake_server import FakeServer

    folder = make_suite(pytester, models=VENDOR_MODEL, jury=VENDOR_JURY)
    pytester.makeconftest(RECORDER)
    with FakeServer(latency_s=latency_s, responder=summarizing_responder(folder)) as fake:
        for name, value in {**FAKE_KEYS, **fake.env()}.items():
            monkeypatch.setenv(name, value)
        yield fake
