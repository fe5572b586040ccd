"""builtin/rules, issue 14 round 13: two values set against each other across a word both
groups share, and groups named by the usual abbreviations ("CG", "SeG")."""

from __future__ import annotations

from twin_studies import twins


def test_a_shared_word_between_a_value_and_compared_with_is_stepped_over() -> None:
    """"35.41 per patient consultation compared with 51.12 for face-to-face consultation":
    "consultation" names both groups, so it owns no value, but it still stands between the
    first value and "compared with"."""
    groups = {"intervention": "telephone consultation", "control": "face-to-face consultation"}
    text = ("Telephone consultation had a mean cost of UK£35.41 per patient consultation "
            "compared with £51.12 for face-face consultation, difference £15.71 (95% CI "
            "11.8 to 19.6; P < 0.001).")
    assert twins("NHS costs", text, "lower", **groups) == (1, 0)


def test_role_abbreviations_and_a_short_name_with_g_for_group_name_the_groups() -> None:
    """"in the SeG ... in the CG": "CG" is the control group when no description gives it
    another meaning, and "SeG" is the "Se" group."""
    groups = {"intervention": "Se (as sodium selenite) per os on the days of RT",
              "control": "receive no supplement during RT"}
    text = ("The actuarial incidence of at least CTC 2 radiation induced diarrhoea in the SeG "
            "was 20.5% compared to 44.5% in the CG (p=0.04).")
    assert twins("radiation induced diarrhoea", text, "lower", **groups) == (1, 0)
    text = "Diarrhoea was less frequent in the IG than in the CG (p = 0.04)."
    assert twins("diarrhoea", text, "lower", intervention="a selenium supplement",
                 control="no supplement") == (1, 0)


def test_tested_values_in_a_summary_that_names_no_outcome_are_the_sole_outcomes() -> None:
    """"79% for study group vs. 54% for control group (P value 0.00)": a summary of a
    one-outcome study that names no outcome compares the groups on that outcome when a test
    is said of the values; listed values without a test compare nothing."""
    groups = {"intervention": "ISO 15189 courses", "control": "control group"}
    text = ("79 % for study group vs. 54% for control group with P value 0.00 in post "
            "intervention phase (Table 2).")
    assert twins("compliance to ISO 15189", text, "higher", **groups) == (1, 0)
    text = "The rates were 79 % for the study group and 54% for the control group."
    assert twins("compliance to ISO 15189", text, "higher", **groups) == (1, 1)


def test_a_half_of_whereas_gives_its_value_after_or_before_its_group() -> None:
    """"... was 50.34 s whereas with C-MAC time taken was 39.56 s in Group C": the value
    after the group's first name when a name follows it; "12 (37.7%) cases in the control
    group, while only 3 (10.3%) in the yoga group": the value before the group."""
    groups = {"intervention": "C-MAC D-Blade videolaryngoscope",
              "control": "standard Macintosh laryngoscope"}
    text = ("The mean time taken to intubate with Macintosh laryngoscope was 50.34 ± 26.76 s "
            "whereas with C-MAC D-Blade time taken was 39.56 ± 15.65 s in Group C (P < 0.05) "
            "and is statistically significant")
    assert twins("mean time taken to intubate", text, "lower", **groups) == (1, 0)
    text = ("There were 12 (37.7%) cases of PIH / PE in the control group, while only 3 "
            "(10.3%) in the yoga group, resulting in a highly significant difference between "
            "the means (P = 0.018, chi2).")
    assert twins("Pregnancy-induced hypertension / pre-eclampsia", text, "lower",
                 intervention="yoga", control="controls") == (1, 0)


def test_three_arms_each_with_a_value_before_it_set_against_the_control() -> None:
    """"34.3% with lidocaine, 40% with ketorolac and 8.6% with both, compared with 74.3% with
    placebo": every intervention arm below the control, so the intervention is lower; arms
    on both sides of the control's value give no side."""
    groups = {"intervention": "rocuronium with lidocaine; rocuronium with ketorolac",
              "control": "placebo"}
    text = ("The overall incidence of withdrawal movements after rocuronium was 34.3% with "
            "lidocaine (P = 0.001), 40% with ketorolac (P = 0.004), and 8.6% with both "
            "(P < 0.001), compared with 74.3% with placebo.")
    assert twins("incidence of withdrawal movements", text, "lower", **groups) == (1, 0)
    text = text.replace("40% with ketorolac", "80% with ketorolac")
    assert twins("incidence of withdrawal movements", text, "lower", **groups) == (1, 1)


def test_a_count_stands_for_the_share_in_the_bracket_after_it() -> None:
    """"Two children (4.3 %) ... in the group treated with the syrup alone, versus 9 children
    (23.1 %) in the group treated with the syrup plus antibiotics": the shares are compared
    (the groups differ in size), the first one found in its bracket when the count is a
    word."""
    groups = {"intervention": "homeopathic syrup plus oral antibiotic treatment",
              "control": "homeopathic syrup alone"}
    text = ("Two children (4.3 %) reported adverse effects in the group treated with the "
            "homeopathic syrup alone, versus 9 children (23.1 %) in the group treated with the "
            "homeopathic syrup plus antibiotics (P = 0.020).")
    assert twins("adverse events", text, "higher", **groups) == (1, 0)
    text = ("30 patients (15 %) had adverse events in the group treated with the homeopathic "
            "syrup alone, versus 20 patients (40 %) in the group treated with the homeopathic "
            "syrup plus antibiotics (P = 0.020).")
    assert twins("adverse events", text, "higher", **groups) == (1, 0)
    text = ("A rating of 5.4 (90% CI 4.5 to 6.3) was reported in the group treated with the "
            "homeopathic syrup alone, versus 4.0 (95% CI 3.9 to 4.1) in the group treated with "
            "the homeopathic syrup plus antibiotics (P = 0.020).")
    assert twins("rating", text, "lower", **groups) == (1, 0)  # "(90% CI": no share


def test_each_groups_count_with_its_share_is_read_as_the_share() -> None:
    """"30 (15%) in the A group and 20 (40%) in the B group": the groups differ in size, so
    the shares, not the counts, say which group had more; "(95% CI ...)" is no share."""
    text = ("Adverse events occurred in 30 (15%) patients in the drug A group and 20 (40%) "
            "in the placebo group (p = 0.01).")
    assert twins("adverse events", text, "lower") == (1, 0)
    text = ("The mean ratings were 5.4 (95% CI 4.5-6.3) for the drug A group and 4.0 (95% CI "
            "4.0-4.0) for the placebo group (p < 0.001).")
    assert twins("ratings", text, "higher") == (1, 0)
