"""builtin/rules, issue 14 round 8: readings of hand-written prose, each a rule of English
about how summaries state results, with invented outcomes and groups (not copied from a
labeled set)."""

from __future__ import annotations

from typing import Any

from test_rules_completeness_round7 import _pain_series
from twin_studies import binary_study

from pytest_rwe.rules import judge
from pytest_rwe.rules.text import clauses, sentences
from pytest_rwe.study import Study, parse_study


def direction(s: Study, text: str) -> int:
    return judge(s, text, "direction_of_effect").score


def test_a_describing_bracket_is_part_of_a_long_heading() -> None:
    """"Series X (n = 120, adults, score >= 4 at baseline; mean score 6.1): ..." is a long
    heading, its bracket describes the population: the heading is its own clause, so what
    follows the colon is not read together with it, while a heading whose brackets hold
    only estimates stays one clause with the result after its colon (round 7)."""
    text = ("Nerve block X series (n = 120, adults with knee pain, pain score >= 4 at "
            "baseline; mean baseline pain score 6.8): at 12 weeks, mean pain score change "
            "-2.4 (p < 0.001), i.e. a meaningful improvement for a population with three or "
            "more prior surgeries on average.")
    assert judge(_pain_series(), text, "completeness").score == 0
    s = binary_study(("stroke", "HR", "1.25 (1.05, 1.50)", "0.01"),
                     ("gout", "HR", "1.17 (1.02, 1.33)", "0.02"))
    note = "- Stroke (HR 1.25, 1.05-1.50) and gout (aOR 1.17): higher with {}\n"
    assert direction(s, note.format("placebo")) == 0
    assert direction(s, note.format("drug A")) == 1


def test_an_abbreviation_the_control_negates_names_the_intervention() -> None:
    """"No severe kidney dysfunction feature (non-SKD)": "non-SKD" names the control, and
    so "SKD" alone ("the SKD group") names the intervention."""
    def study(hr: str) -> Study:
        return binary_study(("stroke", "HR", hr, "0.01"),
                            intervention="Severe kidney dysfunction features (eGFR < 30)",
                            control="No severe kidney dysfunction feature (non-SKD)")
    text = "SKD vs non-SKD: stroke was significantly lower in the SKD group (HR {}, p = 0.01)."
    assert direction(study("0.80 (0.70, 0.92)"), text.format("0.80")) == 1
    assert direction(study("1.25 (1.09, 1.43)"), text.format("1.25")) == 0


def test_a_negated_word_without_its_negative_prefix_names_the_control() -> None:
    """"housing-secure adults" for the control "No housing insecurity": the word the
    control negates, written without its negative prefix, names the control; so the
    comparison "than housing-secure adults" has the intervention on the other side."""
    def study(odds: str) -> Study:
        return binary_study(("emergency visits", "OR", odds, "0.01"),
                            intervention="Housing insecurity in the past year",
                            control="No housing insecurity")
    text = ("Housing-insecure adults reported more emergency visits than housing-secure "
            "adults (OR {}).")
    assert direction(study("1.40 (1.10, 1.80)"), text.format("1.40")) == 1
    assert direction(study("0.70 (0.55, 0.90)"), text.format("0.70")) == 0


def test_the_controls_negated_words_after_its_negation_name_the_control() -> None:
    """"than those started on a non-selective calcium channel blocker": the control's own
    name begins with a negation ("Non-selective calcium channel blockers"), and its negated
    words written after "non-" are all one reference to it."""
    def study(hr: str) -> Study:
        return binary_study(("stroke", "HR", hr, "0.01"),
                            intervention="Angiotensin receptor blockers (ARBs)",
                            control="Non-selective calcium channel blockers")
    text = ("People who started an ARB had lower stroke rates (HR {}) than those started on "
            "a non-selective calcium channel blocker.")
    assert direction(study("0.80 (0.70, 0.92)"), text.format("0.80")) == 1
    assert direction(study("1.25 (1.09, 1.43)"), text.format("1.25")) == 0


def test_a_controls_bracket_describing_the_population_names_neither_group() -> None:
    """"No CKD (propensity-matched hospitalised adults with influenza)": the bracket's words
    are the study population's, said of both groups ("in this matched sample"), so they do
    not name the control."""
    def study(rr: str) -> Study:
        raw = binary_study(("readmission", "RR", "1.30 (0.90, 1.90)", None),
                           ("death", "RR", rr, None),
                           intervention="Chronic kidney disease (CKD)",
                           control="No CKD (propensity-matched hospitalised adults with "
                                   "influenza)").raw
        picot = {**raw["picot"], "population": "Hospitalised adults with influenza, "
                 "propensity-matched on age and sex"}
        return parse_study({**raw, "picot": picot})
    text = ("Among 200 matched pairs of hospitalised adults, point estimates pointed to more "
            "readmissions (RR 1.30) in patients with chronic kidney disease, and slightly more "
            "deaths (RR {}), although all the intervals included 1 in this small matched "
            "sample.")
    assert direction(study("1.29 (0.81, 2.05)"), text.format("1.29")) == 1
    assert direction(study("0.77 (0.50, 1.20)"), text.format("0.77")) == 0
    # a bracket that says what the control does still names it, population words or not
    def doing(hr: str) -> Study:
        raw = binary_study(("admission", "HR", hr, "0.01"),
                           intervention="Initiation of home oxygen therapy (HOT)",
                           control="No HOT initiation (inhaled bronchodilators only)").raw
        picot = {**raw["picot"], "population": "Adults with COPD using inhaled bronchodilators"}
        return parse_study({**raw, "picot": picot})
    said = ("Patients continuing inhaled bronchodilators alone had more admissions than those "
            "who started home oxygen (HR {}).")
    assert direction(doing("0.80 (0.70, 0.92)"), said.format("0.80")) == 1
    assert direction(doing("1.25 (1.09, 1.43)"), said.format("1.25")) == 0


def _strata(unmet_asthma: str) -> Study:
    """A survey: the odds of service use and of unmet need, in adults with asthma and in
    adults with diabetes, each with and without sleep apnea."""
    outcomes = {"outcome.service_use.asthma_bin!OR": "2.10 (1.60, 2.70)",
                "outcome.service_use.diabetes_bin!OR": "1.20 (0.90, 1.60)",
                "outcome.unmet_need.asthma_bin!OR": unmet_asthma,
                "outcome.unmet_need.diabetes_bin!OR": "1.50 (1.20, 1.90)"}
    raw: dict[str, Any] = {
        "id": "strata", "design": "cross_sectional", "question": "Does sleep apnea matter?",
        "picot": {"population": "US adults", "intervention": "Sleep apnea",
                  "control": "No sleep apnea", "outcome": "service use; unmet need",
                  "timeframe": "past year"},
        "results": {"intervention_size": 900, "control_size": 9000, "baseline_differences": {},
                    "outcomes": outcomes}}
    return parse_study(raw)


def test_an_opening_scope_names_the_subgroup_of_the_sentences_later_clauses() -> None:
    """"Among adults with asthma, those with sleep apnea had higher odds of A but lower
    odds of B": the opening "among ..." scopes the clause after "but" as well, so B is the
    asthma subgroup's B."""
    text = ("Survey results: among adults with asthma, those with sleep apnea had higher odds "
            "of service use (OR 2.10) but lower odds of unmet need (OR {}).")
    assert direction(_strata("0.77 (0.62, 0.95)"), text.format("0.77")) == 1
    assert direction(_strata("1.30 (1.05, 1.60)"), text.format("1.30")) == 0


def test_a_short_name_word_spelt_by_initials_of_the_studys_words_is_those_words() -> None:
    """"hl" of "best_corrected_bilateral_hl_or_deafness" is the "hearing loss" the design
    writes: a summary names the outcome by those words."""
    def study(odds: str) -> Study:
        raw = binary_study(("best corrected bilateral hl or deafness", "OR", odds, "0.41"),
                           ("presenting bilateral hl or deafness", "OR", "1.10 (0.80, 1.50)",
                            "0.60"), intervention="Diabetes", control="No diabetes").raw
        picot = {**raw["picot"], "outcome": "Bilateral hearing loss or deafness, presenting "
                 "and best corrected"}
        return parse_study({**raw, "picot": picot})
    text = "People with diabetes were more likely to have best-corrected hearing loss (OR 1.27)."
    # a non-significant outcome stated as higher asserts an effect
    assert direction(study("1.27 (0.72, 2.23)"), text) == 0
    assert direction(study("1.27 (0.72, 2.23)"),
                     "Best-corrected bilateral hearing loss did not differ with diabetes (OR 1.27, "
                     "p = 0.41).") == 1


def test_a_group_with_its_own_verb_after_and_bears_the_stretch_after_it() -> None:
    """"..., and drug B users, in turn, had the lower risk of gout": the group named after
    "and" with a verb of its own is the subject of what follows the comma-set-off "in turn",
    not one more compared-against group, nor both groups at once."""
    def study(gout: str) -> Study:
        return binary_study(("stroke", "HR", "0.76 (0.70, 0.82)", "0.001"),
                            ("gout", "HR", gout, "0.001"),
                            intervention="Drug A", control="Drug B")
    text = ("Drug A users had lower hazards of stroke (HR 0.76) than those on drug B, and "
            "drug B users, in turn, had the lower risk of gout (HR {}).")
    assert direction(study("1.25 (1.10, 1.42)"), text.format("1.25")) == 1
    assert direction(study("0.80 (0.70, 0.92)"), text.format("0.80")) == 0


def _factors(obesity_p: str) -> Study:
    """Stroke by risk factor: smoking only and obesity only, against neither."""
    raw: dict[str, Any] = {
        "id": "factors", "design": "cohort", "question": "Do risk factors raise stroke risk?",
        "picot": {"population": "Adults", "intervention": "Smoking only or obesity only",
                  "control": "Neither smoking nor obesity", "outcome": "stroke",
                  "timeframe": "10 years"},
        "results": {"intervention_size": 900, "control_size": 9000, "baseline_differences": {},
                    "outcomes": {"outcome.stroke.smoking_only_bin!HR": "1.22 (1.05, 1.40)",
                                 "outcome.stroke.smoking_only_bin!pvalue": "0.008",
                                 "outcome.stroke.obesity_only_bin!HR": "1.28 (0.89, 1.85)",
                                 "outcome.stroke.obesity_only_bin!pvalue": obesity_p}}}
    return parse_study(raw)


def test_a_list_of_amounts_after_a_colon_takes_the_verb_before_it() -> None:
    """"each risk factor raised the hazard of stroke: smoking alone by 22% (...) and obesity
    alone by 28% (...)": the items after the colon have no verb of their own; the rise
    before the colon is said of each, so a non-significant item is stated as a rise."""
    text = ("Each risk factor raised the hazard of stroke relative to having neither: smoking "
            "alone by 22% (HR 1.22, 1.05-1.40) and obesity alone by 28% (HR 1.28, "
            "0.89-1.85).")
    assert direction(_factors("0.01"), text) == 1
    assert direction(_factors("0.19"), text) == 0
    # an item with a verb of its own is a clause of its own after a long heading
    note = ("Usual care in a large group practice over six months of follow-up: pain "
            "decreased by 2.4 points (p < 0.001).")
    assert len(clauses(note, sentences(note)[0])) == 2
    listed = note.replace("pain decreased by", "pain alone by")
    assert len(clauses(listed, sentences(listed)[0])) == 1


def test_a_group_word_before_kin_of_another_group_describes_the_kin() -> None:
    """"Healthy brothers and sisters of children with epilepsy": "healthy" (the control's
    word) describes the siblings; "of children with epilepsy" says whose siblings they are,
    the intervention group."""
    def study(hr: str) -> Study:
        return binary_study(("anxiety", "HR", hr, None),
                            intervention="Sibling of a patient with epilepsy",
                            control="Sibling of a healthy individual")
    text = ("Healthy brothers and sisters of children with epilepsy had a lower risk of "
            "anxiety than siblings of healthy children (HR {}).")
    assert direction(study("0.80 (0.70, 0.92)"), text.format("0.80")) == 1
    assert direction(study("1.20 (1.05, 1.37)"), text.format("1.20")) == 0
