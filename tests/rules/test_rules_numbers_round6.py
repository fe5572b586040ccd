"""numbers_accurate: readings added in issue 14's round 6 (each test fails when its reading
breaks). The studies and sentences are invented for these tests, not copied from a labeled
set."""

from __future__ import annotations

from typing import Any

from pytest_rwe.rules import judge
from pytest_rwe.rules.approximate import approximations_in
from pytest_rwe.study import Study, parse_study


def _study(outcomes: dict[str, str], *, population: str = "Adults with gout",
           intervention: str = "Drug A", control: str = "Drug B",
           sizes: tuple[int | None, int | None] = (400, 600),
           baseline: dict[str, str] | None = None) -> Study:
    raw: dict[str, Any] = {
        "id": "round6", "design": "cohort", "question": "How does drug A compare with B?",
        "picot": {"population": population, "intervention": intervention,
                  "control": control, "outcome": "several", "timeframe": "one year"},
        "results": {"intervention_size": sizes[0], "control_size": sizes[1],
                    "baseline_differences": baseline or {}, "outcomes": outcomes}}
    return parse_study(raw)


def _numbers(study: Study, text: str) -> int:
    return judge(study, text, "numbers_accurate").score


def test_a_number_a_time_unit_follows_is_a_time_point_not_an_estimate() -> None:
    study = _study({"outcome_30d.stroke_bin!RR": "1.40 (0.90, 2.10)",
                    "outcome_90d.stroke_bin!RR": "1.20 (0.80, 1.90)"})
    text = "Stroke: 30-day RR 1.40 (0.90-2.10), 90-day RR 1.20 (0.80-1.90)."
    assert _numbers(study, text) == 1
    assert _numbers(study, "Stroke at 30 days RR 1.40 (0.90-2.10) and at 90 days 1.20.") == 1
    # a real estimate after the label is still checked
    assert _numbers(study, "Stroke: 30-day RR 1.40 (0.90-2.10), 90-day RR 1.70 (0.80-1.90).") \
        == 0


def test_thousands_separated_by_a_space_in_the_design_text() -> None:
    study = _study({"outcome.stroke_bin!HR": "1.40 (1.10, 1.80)"},
                   population="12 431 adults with gout in a national register", sizes=(None, 5200))
    assert _numbers(study, "Among 12,431 adults, stroke was more frequent (HR 1.40).") == 1
    assert _numbers(study, "Among 12,413 adults, stroke was more frequent (HR 1.40).") == 0


def test_a_round_number_after_a_bound_is_a_bound() -> None:
    study = _study({"outcome.stroke_bin!HR": "1.40 (1.10, 1.80)"},
                   population="183,472 adults with gout")
    assert _numbers(study, "In more than 183,000 adults, stroke was more frequent (HR 1.40).") \
        == 1
    assert _numbers(study, "In under 184,000 adults, stroke was more frequent (HR 1.40).") == 1
    # the bound must hold, and hold within one unit of the last digit written
    assert _numbers(study, "In more than 184,000 adults, stroke was more frequent (HR 1.40).") \
        == 0
    assert _numbers(study, "In more than 182,000 adults, stroke was more frequent (HR 1.40).") \
        == 0


def test_a_line_break_ends_the_reach_of_a_proportion_in_words() -> None:
    study = _study({"outcome.stroke_bin!HR": "2.20 (1.60, 3.00)",
                    "outcome.gout_flare_bin!HR": "3.40 (2.50, 4.60)"})
    text = ("Drug A vs drug B:\n- Stroke: HR 2.20 (1.60-3.00), more than double\n"
            "- Gout flare: HR 3.40 (2.50-4.60), over three times")
    assert _numbers(study, text) == 1


def test_a_time_point_read_as_a_name_does_not_own_a_proportion_in_words() -> None:
    outcomes = {}
    for time, composite, death in (("1mo", "1.6 (1.1, 2.2)", "5.1 (1.7, 15.6)"),
                                   ("3mo", "1.3 (1.1, 1.7)", "2.5 (1.5, 4.3)"),
                                   ("1yr", "1.3 (1.1, 1.4)", "1.8 (1.5, 2.2)")):
        outcomes[f"outcome_{time}.readmission_or_death_bin!HR"] = composite
        outcomes[f"outcome_{time}.all_cause_death_bin!HR"] = death
    study = _study(outcomes)
    [approximation] = approximations_in("and 2.5-fold at three months")
    assert approximation.kind == "ratio"
    # "three" (of "three months") is read as the 3-month composite's name: not an owner
    text = ("Drug A was associated at one year with more readmission or death (HR 1.3) and "
            "all-cause mortality (HR 1.8). The mortality excess was largest early on: the "
            "hazard was about five times higher at one month (HR 5.1) and 2.5-fold at three "
            "months.")
    assert _numbers(study, text) == 1
    # a proportion in words beside a name is still checked against it
    assert _numbers(study, text + " The risk of readmission or death was twice as high.") \
        == 0


def test_a_count_beside_a_share_in_words_is_the_count_it_is_of() -> None:
    study = _study({"outcome.death_bin!N": "21/60", "outcome.discharged_bin!N": "38/60",
                    "outcome.still_admitted_bin!N": "1/60"}, sizes=(60, None))
    text = ("Of 60 patients, about a third (21 people) died, 38 were discharged and one was "
            "still admitted.")
    assert _numbers(study, text) == 1
    assert _numbers(study, text.replace("about a third", "about half")) == 0
    # "k of n" beside the share is the summary's own count; the share must fit it
    cohort = _study({"outcome_52wk.retention_bin!N": "80/114",
                     "outcome_52wk.retention_bin!PCT": "70",
                     "outcome_104wk.retention_bin!N": "69/114",
                     "outcome_104wk.retention_bin!PCT": "61"}, sizes=(114, None))
    text = ("Seven in ten patients with gout (80 of 114) were still on drug A after a year, and "
            "about six in ten (69) after two years.")
    assert _numbers(cohort, text) == 1
    assert _numbers(cohort, text.replace("Seven in ten", "Nine in ten")) == 0


def test_a_p_value_beside_an_estimate_belongs_to_that_estimates_outcome() -> None:
    study = _study({"outcome.low_blood_glucose_bin!OR": "2.37 (1.60, 3.50)",
                    "outcome.low_blood_glucose_bin!pvalue": "<0.001",
                    "outcome.birth_injury_bin!OR": "0.91 (0.50, 1.70)",
                    "outcome.birth_injury_bin!pvalue": "0.77"})
    # "after birth" is read as birth injury; the estimate says whose p-value it is
    text = "Babies were more often hypoglycaemic after birth (OR 2.37, p < 0.001)."
    assert _numbers(study, text) == 1
    assert _numbers(study, text.replace("2.37", "0.91")) == 0


def test_a_name_every_stratum_holds_names_each_stratum() -> None:
    study = _study({"outcome.asthma.obesity_bin!OR": "4.10 (3.00, 5.50)",
                    "outcome.asthma_prevalence.obesity_bin!PCT": "38.4 (35.0, 41.8)",
                    "outcome.asthma_prevalence.normal_weight_bin!PCT": "9.2 (8.0, 10.4)"})
    text = ("Obesity: aOR 4.10 (3.00-5.50); asthma prevalence 38.4% (35.0-41.8) vs 9.2% with "
            "normal weight.")
    assert _numbers(study, text) == 1


def test_a_group_named_inside_the_parenthesis_owns_its_size() -> None:
    study = _study({"outcome.stroke_bin!OR": "1.20 (1.03, 1.40)"},
                   intervention="Gout", control="No gout (propensity-score matched)",
                   sizes=(7040, 21120))
    text = ("After propensity-score matching (7,040 adults with gout vs 21,120 without), gout "
            "was associated with stroke (OR 1.20).")
    assert _numbers(study, text) == 1
    swapped = ("After propensity-score matching (21,120 adults with gout vs 7,040 without), "
               "gout was associated with stroke (OR 1.20).")
    assert _numbers(study, swapped) == 0


def test_a_pair_alone_in_a_parenthesis_is_ordered_only_by_a_declared_order() -> None:
    # "years" (of "for at least 5 years") and "ST group" (of "ST-naive") are read as group
    # names; neither orders the pair "(44.9 vs 37.5 years)" that follows the sentence's subject
    study = _study({"outcome.stroke_bin!RR": "1.36 (1.13, 1.65)"},
                   population="612 adults", sizes=(306, 306),
                   intervention="Statin therapy for at least 5 years (LTST)",
                   control="ST-naive status",
                   baseline={"age_mean_years": "control 37.5 vs intervention 44.9",
                             "female_pct": "control 68.0% vs intervention 71.9%"})
    text = ("Among 612 adults, those on statins for at least five years (n = 306) had more "
            "strokes than ST-naive participants (n = 306): RR 1.36. The long-term ST group was "
            "older (mean age 44.9 vs 37.5 years) and slightly more often female (71.9% vs "
            "68.0%).")
    assert _numbers(study, text) == 1
    # a declared order is still read
    declared = text.replace("(71.9% vs 68.0%)", "(intervention vs control: 68.0% vs 71.9%)")
    assert _numbers(study, declared) == 0


def test_a_count_over_another_counts_denominator_is_a_wrong_denominator() -> None:
    study = _study({"outcome.death_bin!N": "18/60", "outcome.death_if_dialysed_bin!N": "15/44",
                    "outcome.seizure_among_deaths_bin!N": "6/18"}, sizes=(60, None),
                   population="75 adults referred, 60 admitted")
    right = ("Of 60 patients, 18 died; 44 were dialysed and 15 of those 44 died. Six of the 18 "
             "who died had a seizure (6 of 18).")
    assert _numbers(study, right) == 1
    wrong = right.replace("(6 of 18)", "(6 of the 44 dialysed patients)")
    assert _numbers(study, wrong) == 0
    # an n that is no count's denominator is left to the other checks
    assert _numbers(study, right.replace("(6 of 18)", "(6 of 75 referred)")) == 1


def test_an_estimate_and_its_interval_are_one_outcomes_three_numbers() -> None:
    study = _study({"outcome.dialysis_bin!HR": "0.74 (0.58, 0.97)",
                    "outcome.renal_admission_bin!HR": "1.02 (0.90, 1.15)",
                    "outcome.stroke_bin!HR": "1.04 (0.95, 1.13)"})
    # "KRT" is not read as dialysis: the point and the lower limit say whose interval it is
    right = "KRT was less frequent with drug A, HR 0.74 (0.58-0.97); stroke 1.04 (0.95-1.13)."
    assert _numbers(study, right) == 1
    assert _numbers(study, right.replace("(0.58-0.97)", "(0.58-0.90)")) == 0
    assert _numbers(study, right.replace("(0.58-0.97)", "(0.90-0.97)")) == 0


def test_a_time_point_written_unit_first_places_its_value() -> None:
    study = _study({"outcome_12wk.remission_bin!PCT": "41", "outcome_24wk.remission_bin!PCT": "35",
                    "outcome_12wk.response_bin!PCT": "58", "outcome_24wk.response_bin!PCT": "41"},
                   sizes=(120, None))
    right = "Remission 41% at wk 12 and 35% at wk 24; response 58% at wk 12, 41% at week 24."
    assert _numbers(study, right) == 1
    assert _numbers(study, right.replace("41% at wk 12 and 35%", "35% at wk 12 and 41%")) == 0


def test_a_group_named_alone_in_the_bracket_after_a_value_owns_it() -> None:
    study = _study({"outcome.death_bin!HR": "0.84 (0.73, 0.96)"},
                   intervention="Drug A", control="Drug B or drug C (B/C)",
                   baseline={"ef_pct_median": "control 31 vs intervention 27"})
    right = "Death HR 0.84 with drug A. Baseline: median EF 27% (drug A) vs 31% (B/C)."
    assert _numbers(study, right) == 1
    assert _numbers(study, right.replace("27% (drug A) vs 31%", "31% (drug A) vs 27%")) == 0


def test_a_count_tied_to_a_name_must_be_that_outcomes_count() -> None:
    study = _study({"outcome.dialysis_bin!N": "64/210", "outcome.ecmo_bin!N": "18/210",
                    "outcome.prone_positioning_bin!N": "33/210"}, sizes=(210, None))
    right = ("Of 210 patients, dialysis was needed in 64 patients, ECMO in 18 and prone "
             "positioning in 33.")
    assert _numbers(study, right) == 1
    assert _numbers(study, right.replace("ECMO in 18", "ECMO in 33")) == 0
    # a bracket after a name describes people, it does not count the outcome
    assert _numbers(study, "Of 210 patients treated for ECMO-eligible failure (33 of them "
                    "proned), ECMO was used in 18.") == 1


def test_everyone_in_the_design_is_no_one_groups_size() -> None:
    study = _study({"outcome.death_bin!OR": "0.71 (0.54, 0.93)"},
                   population="12,406 patients having knee surgery in 40 hospitals",
                   intervention="Nerve block", control="No nerve block", sizes=(3810, None))
    right = "Nerve block (n = 3,810) was compared with no nerve block in 12,406 patients (OR 0.71)."
    assert _numbers(study, right) == 1
    wrong = "Nerve block (n = 3,810) was compared with no nerve block (n = 12,406) (OR 0.71)."
    assert _numbers(study, wrong) == 0


def test_a_duration_named_by_a_statistic_is_that_statistics_number() -> None:
    study = _study({"outcome.dementia_bin!HR": "1.62 (1.30, 2.02)"},
                   population="Adults aged 65 or more; median follow-up 3.1 years (IQR 2.0-4.6, "
                              "maximum 6.8)")
    right = ("Followed for a median of 3.1 years (at most 6.8), drug A users had more dementia "
             "(HR 1.62).")
    assert _numbers(study, right) == 1
    assert _numbers(study, right.replace("median of 3.1", "median of 6.8")) == 0
