"""pytest-rwe: a pytest plugin and regression suite for LLM summaries of RWE studies."""

from pytest_rwe.study import Outcome, Study, StudyFileError, load_folder, load_study, parse_study
from pytest_rwe.verdict import CRITERIA, Criterion, CriterionVerdict, JurorScore, Verdict

__version__ = "0.1.0"

__all__ = [
    "CRITERIA",
    "Criterion",
    "CriterionVerdict",
    "JurorScore",
    "Outcome",
    "Study",
    "StudyFileError",
    "Verdict",
    "__version__",
    "load_folder",
    "load_study",
    "parse_study",
]
