"""builtin/rules, issue 14 round 12: the short names a group's description gives in brackets,
and a clause whose two direction words each have a group of their own."""

from __future__ import annotations

from twin_studies import one_outcome, twins

from pytest_rwe.rules.group_words import vocabulary
from pytest_rwe.rules.text import stem


def test_a_bracketed_short_name_names_the_group() -> None:
    """"electrothermal vessel sealing (Ligasure)", "Buserelin (GnRH agonist)": one or two
    plain words in brackets, the first in capitals, are the group's short name."""
    groups = {"intervention": "ultrasonic energy (Thunderbeat)",
              "control": "electrothermal bipolar vessel sealing system (Ligasure)"}
    text = ("There was a significantly higher increase in serum IL-6 levels in the Ligasure "
            "group at 24 hours (p = 0.010).")
    assert twins("serum IL-6 levels", text, "lower", **groups) == (1, 0)
    groups = {"intervention": "Buserelin (GnRH agonist)",
              "control": "Cetrorelix (GnRH antagonist)"}
    text = ("In the antagonist group, the total number of gonadotropin ampoules was "
            "significantly lower than in the agonist group.")
    assert twins("number of gonadotropin ampoules", text, "higher", **groups) == (1, 0)


def test_a_bracket_that_qualifies_or_states_a_direction_names_no_group() -> None:
    """"(reference)", "(self-reported)", "(validated questionnaire)" qualify a description,
    and "(Low dose)" holds a direction word that a summary uses of anything: none of them
    gives the group a word of its own."""
    for intervention, control, words in (
            ("Recent cannabis use (self-reported)", "No cannabis use (reference)",
             {"self-reported", "reference"}),
            ("Symptoms of hidradenitis (validated questionnaire)", "Blood donors",
             {"validated", "questionnaire"}),
            ("800 IU of vitamin D3 (Low dose)", "4,370 IU of vitamin D3 (High dose)",
             {"low", "high"})):
        vocab = vocabulary(one_outcome("PTH levels", "-4.1 (-6.0, -2.2)",
                                       intervention=intervention, control=control))
        named = set(vocab.i_only) | set(vocab.c_only)
        assert not {stem(w) for w in words} & named, (intervention, named)
    vocab = vocabulary(one_outcome("PTH levels", "-4.1 (-6.0, -2.2)",
                                   intervention="Buserelin (GnRH agonist)",
                                   control="Cetrorelix (GnRH antagonist)"))
    assert stem("agonist") in vocab.i_only and stem("antagonist") in vocab.c_only


def test_the_last_part_of_a_hyphenated_abbreviation_names_the_group() -> None:
    """"(CO2-LC)" is "the LC group", "(TC-RF)" is "the RF group"."""
    groups = {"intervention": "temperature-controlled radiofrequency (TC-RF) tonsil ablation",
              "control": "CO2-laser cryptolysis (CO2-LC)"}
    text = "The amount of bleeding in the LC group was significantly less than in the RF group."
    assert twins("amount of bleeding", text, "higher", **groups) == (1, 0)


def test_two_direction_words_each_take_the_group_between_them_in_the_clause() -> None:
    """"a weight decrease (CI ...) in the A group compared to a weight increase in the B
    group": the first direction word's stretch ends at a comma and names no group, so the
    clause's groups are shared out between the two words."""
    text = ("At six months, there was a significant weight decrease of -1.15 kg, (95% CI "
            "-2.11 to -0.19) in the drug A group compared to a weight increase in the placebo "
            "group (+0.5 kg, p = 0.017).")
    assert twins("weight at six months", text, "lower") == (1, 0)
