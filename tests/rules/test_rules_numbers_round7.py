"""numbers_accurate: readings added in issue 14's round 7, from the ways real trial reports
write numbers (each test fails when its reading breaks). The studies and sentences are
invented for these tests, not copied from a labeled set."""

from __future__ import annotations

from typing import Any

from pytest_rwe.rules import judge
from pytest_rwe.rules.number_mentions import numbers_in
from pytest_rwe.study import Study, parse_study


def _study(outcomes: dict[str, str], *, population: str = "Adults with eczema",
           sizes: tuple[int | None, int | None] = (310, 305)) -> Study:
    raw: dict[str, Any] = {
        "id": "round7", "design": "cohort", "question": "How does cream A compare with B?",
        "picot": {"population": population, "intervention": "Cream A", "control": "Cream B",
                  "outcome": "several", "timeframe": "six months"},
        "results": {"intervention_size": sizes[0], "control_size": sizes[1],
                    "baseline_differences": {}, "outcomes": outcomes}}
    return parse_study(raw)


def _numbers(study: Study, text: str) -> int:
    return judge(study, text, "numbers_accurate").score


_FLARES = {"outcome.eczema_flare_bin!HR": "0.74 (0.61, 0.90)",
           "outcome.eczema_flare_bin!pvalue": "0.002",
           "outcome.itch_score_cont!MD": "-1.3 (-2.1, -0.4)",
           "outcome.itch_score_cont!pvalue": "0.01"}


def test_a_middle_dot_is_a_decimal_point() -> None:
    assert [(n.value, n.decimals) for n in numbers_in("HR 0\u00b774 (p=0\u00b7002)")] == [
        (0.74, 2), (0.002, 3)]
    study = _study(_FLARES)
    text = ("Flares were less frequent with cream A (HR 0\u00b774, 95% CI 0\u00b761\u20130\u00b790;"
            " p=0\u00b7002) and itch fell (MD \u22121\u00b73, \u22122\u00b71 to \u22120\u00b74).")
    assert _numbers(study, text) == 1
    assert _numbers(study, text.replace("0\u00b774", "0\u00b779")) == 0
    assert _numbers(study, text.replace("\u22120\u00b74", "\u22120\u00b77")) == 0


def test_a_decimal_comma_where_no_thousands_can_be_meant() -> None:
    assert [n.value for n in numbers_in("OR 0,93 [0,67\u20131,30]")] == [0.93, 0.67, 1.3]
    # thousands, degrees of freedom and a list keep their readings
    assert [n.value for n in numbers_in("12,345 adults")] == [12345]
    assert [n.value for n in numbers_in("F(1,12) = 4.1")] == [1, 12, 4.1]
    assert [n.value for n in numbers_in("weeks 1,2,4")] == [1, 2, 4]
    study = _study(_FLARES)
    text = "Flares were less frequent with cream A (HR 0,74 [0,61\u20130,90])."
    assert _numbers(study, text) == 1
    assert _numbers(study, text.replace("0,90", "0,95")) == 0


def test_digits_glued_to_a_letter_of_any_script_or_a_units_power_are_no_values() -> None:
    assert numbers_in("\u03c72 and A\u03b242") == []
    assert [n.value for n in numbers_in("4.2 \u03bcg \u00b7 mL\u22121 \u00b7 hr-1")] == [4.2]
    study = _study({**_FLARES, "outcome.serum_level_cont!MD": "4.2 (1.1, 7.3)"})
    text = ("Flares were less frequent with cream A (\u03c72 = 0.74, p = 0.002); the serum level "
            "was higher (MD 4.2 \u03bcg \u00b7 mL\u22121).")
    assert _numbers(study, text) == 1


def test_p_of_0_05_written_for_an_outcome_is_a_result_and_must_hold() -> None:
    study = _study(_FLARES)
    assert _numbers(study, "Flares were less frequent with cream A (HR 0.74, p < 0.05).") == 1
    assert _numbers(study, "Flares were less frequent with cream A (HR 0.74, p > 0.05).") == 0
    assert _numbers(study, "Flares were less frequent with cream A (HR 0.74, P value 0.05).") \
        == 0
    # the level a report defines is no result
    assert _numbers(study, "With significance set at p > 0.05 flares were less frequent with "
                    "cream A (HR 0.74).") == 1
    assert _numbers(study, "Flares were less frequent with cream A (HR 0.74), significant at "
                    "p > 0.05.") == 1
