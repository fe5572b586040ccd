"""builtin/rules, issue 14 round 8: outcomes named in other words and directions stated by a
word with a side ("improved", "better", "greater reductions"), each a rule of English checked
on invented outcomes and groups with the twins of tests/rules/twin_studies.py."""

from __future__ import annotations

from twin_studies import twins


def test_a_comparative_change_from_baseline_sets_the_groups_apart() -> None:
    """"greater reductions from baseline in X were seen in the A group": the comparative sets
    one group's change against the other's, so "from baseline" does not make it a change
    within one group; a change from baseline with no comparative stays unjudged."""
    text = ("Significantly greater reductions from baseline in itch scores were seen in the "
            "drug A group (p = 0.002).")
    assert twins("itch scores", text, "lower") == (1, 0)
    assert twins("itch scores", text.replace("greater", "smaller"), "higher") == (1, 0)
    # one group's own change from baseline is not a comparison
    assert twins("itch scores", "Itch scores fell significantly from baseline in the drug A "
                 "group (p = 0.002).", "lower") == (1, 1)
    assert twins("itch scores", "A marked reduction from baseline in itch scores was seen in "
                 "the drug A group (p = 0.002).", "lower") == (1, 1)


def test_the_good_side_of_ejection_fraction_recognition_and_component_summaries() -> None:
    """Valence words take a side for outcomes whose good side is known: a higher ejection
    fraction, better recognition, a higher component summary score (SF-36) are better."""
    assert twins("left ventricular ejection fraction", "Drug A improved left ventricular "
                 "ejection fraction compared with placebo (p = 0.01).", "higher") == (1, 0)
    assert twins("recognition of angry faces", "Drug A significantly impaired the "
                 "recognition of angry faces compared with placebo (p < 0.01).",
                 "lower") == (1, 0)
    assert twins("mental component summary", "The mental component summary was better "
                 "with drug A than with placebo (p = 0.03).", "higher") == (1, 0)
    # "improved" with no side stated stays unjudged
    assert twins("left ventricular ejection fraction", "Left ventricular ejection fraction "
                 "improved in both groups (p = 0.01).", "higher") == (1, 1)


def test_the_absence_of_a_qualified_harm_is_good() -> None:
    """"time without troublesome dyskinesia": a harm that is absent, even with a word
    qualifying it, makes the outcome a good one; "non-" before a qualifier does not
    ("non-fatal dyskinesia" would still be a harm)."""
    text = ("The improvement in time without troublesome dyskinesia was significantly greater "
            "with drug A than with placebo (p = 0.004).")
    assert twins("time without troublesome dyskinesia", text, "higher") == (1, 0)
    assert twins("episodes of dyskinesia", "Episodes of dyskinesia improved significantly "
                 "more with drug A than with placebo (p = 0.004).", "lower") == (1, 0)


def test_a_group_named_with_after_the_compared_side_bears_the_direction() -> None:
    """"X was longer versus placebo with drug A": the group after "with" bears the direction,
    the one after "versus" is compared against; "in" is left alone, since it qualifies the
    compared side too ("compared with patients in the placebo group")."""
    text = ("The time to first rescue analgesia was significantly longer versus placebo with "
            "drug A (p = 0.01).")
    assert twins("time to first rescue analgesia", text, "higher") == (1, 0)
    swapped = ("The time to first rescue analgesia was significantly shorter versus drug A "
               "with placebo (p = 0.01).")
    assert twins("time to first rescue analgesia", swapped, "higher") == (1, 0)


def test_a_pain_scale_names_the_one_outcome_of_pain() -> None:
    """"VAS scores were lower with A" for "pain intensity": a pain scale names the study's one
    outcome of pain; not when the scale is said to measure something else."""
    text = "VAS scores were significantly lower with drug A than with placebo (p = 0.002)."
    assert twins("pain intensity", text, "lower") == (1, 0)
    assert twins("pain intensity", text.replace("VAS", "Numerical rating scale"),
                 "lower") == (1, 0)
    assert twins("pain intensity", "Nausea VAS scores were significantly lower with drug A "
                 "than with placebo (p = 0.002).", "lower") == (1, 1)
    assert twins("pain intensity", "The VAS for nausea was significantly lower with drug A "
                 "than with placebo (p = 0.002).", "lower") == (1, 1)


def test_a_word_of_length_said_of_a_stay_names_its_length() -> None:
    """"hospitalization was shorter with A" for "length of hospital stay": a word of length
    said of the stay names the stay's length; "hospitalization was less frequent" is about
    admissions, and is left alone."""
    assert twins("length of hospital stay", "Hospitalization was significantly shorter with "
                 "drug A than with placebo (p = 0.01).", "lower") == (1, 0)
    assert twins("length of hospital stay", "Patients on drug A were hospitalized for a "
                 "significantly shorter time than those on placebo (p = 0.01).",
                 "lower") == (1, 0)
    assert twins("length of hospital stay", "Hospitalization was significantly less frequent "
                 "with drug A than with placebo (p = 0.01).", "lower") == (1, 1)


def test_the_adjective_of_a_symptom_names_it() -> None:
    """"less anxious", "less nauseated", "less dizzy", "less painful": the adjective of a
    symptom names the symptom, so its comparative states the outcome's direction."""
    assert twins("anxiety", "Patients on drug A were significantly less anxious than those "
                 "on placebo (p = 0.003).", "lower") == (1, 0)
    assert twins("postoperative nausea", "Patients on drug A were significantly less "
                 "nauseated than those on placebo (p = 0.003).", "lower") == (1, 0)
    assert twins("dizziness", "Patients on drug A were significantly more dizzy than those "
                 "on placebo (p = 0.003).", "higher") == (1, 0)
    assert twins("pain on injection", "Injection was significantly less painful with drug A "
                 "than with placebo (p = 0.003).", "lower") == (1, 0)


def test_favoured_names_the_better_side() -> None:
    """"X favoured drug A over placebo": the group after "favoured" is the better side, the
    one after "over" the worse, whatever order they are written in."""
    assert twins("quality of life", "Quality of life significantly favoured drug A over "
                 "placebo (p = 0.002).", "higher") == (1, 0)
    assert twins("pain intensity", "Pain intensity significantly favoured drug A over "
                 "placebo (p = 0.002).", "lower") == (1, 0)
    assert twins("pain intensity", "Pain intensity significantly favoured placebo over "
                 "drug A (p = 0.002).", "higher") == (1, 0)


def test_trial_reports_own_abbreviations_of_outcomes() -> None:
    """"PONV", "BMI": abbreviations trial reports use for common outcomes name them."""
    assert twins("incidence of postoperative nausea and vomiting", "PONV was significantly "
                 "less frequent with drug A than with placebo (p = 0.001).", "lower") == (1, 0)
    assert twins("body mass index", "BMI was significantly lower with drug A than with "
                 "placebo (p = 0.001).", "lower") == (1, 0)
