"""Plant one-line bugs in the juror, the study reading and the redaction list, one at a time,
and check that some test fails for each (mutation testing by hand-picked mutants).

Each mutant replaces one exact line fragment (which must occur once) in one file, runs the
focused tests and then the offline suite (`pytest cases`), and restores the file. A mutant
that leaves every test green is a behaviour nothing guards.

    python scripts/plant_bugs.py                # every mutant; exit 1 if one survives
    python scripts/plant_bugs.py --list         # the mutants
    python scripts/plant_bugs.py p_bound_lt     # only these

Run it on a clean checkout: it edits the files in place and restores them from memory.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ("tests/test_rules_behaviours.py", "tests/test_rules.py", "tests/test_rules_prose.py",
         "tests/test_rules_reading.py",
         "tests/test_rules_claims_report.py", "tests/test_summarizer.py",
         "tests/test_values.py", "tests/test_study.py", "tests/test_redact.py",
         "tests/test_findings.py", "tests/test_calibrate_labeled.py",
         "tests/test_evidence_inference.py", "tests/rules")


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str
    old: str
    new: str
    what: str


R = "pytest_rwe/rules/"
V = "pytest_rwe/values.py"
MUTANTS = (
    # the juror's own reading of the study (truth.py)
    Mutant("truth_p_bound", R + "truth.py", "            return self.p <= LEVEL\n        if",
           "            return self.p < LEVEL\n        if",
           'a bound "<0.05" read as not significant'),
    Mutant("truth_p_equal", R + "truth.py", "        return self.p < LEVEL",
           "        return self.p <= LEVEL", "p = 0.05 read as significant"),
    Mutant("truth_must_report", R + "truth.py", "        return self.p <= LEVEL\n\n    def shown",
           "        return self.p < LEVEL\n\n    def shown", "p = 0.05 need not be reported"),
    Mutant("truth_ratio_null", R + "truth.py", "null = 1.0 if self.is_ratio else 0.0",
           "null = 0.0 if self.is_ratio else 1.0", "a ratio's null read as 0"),
    # the study parser (the summarizer's side) and the redaction list
    Mutant("values_p_equal", V, "        return self.value < SIGNIFICANCE_LEVEL",
           "        return self.value <= SIGNIFICANCE_LEVEL", "p = 0.05 written as significant"),
    Mutant("values_p_bound", V,
           "            return self.value <= SIGNIFICANCE_LEVEL\n        if self.operator in "
           "(\">\", \">=\"):\n            return False\n        return self.value < "
           "SIGNIFICANCE_LEVEL",
           "            return self.value < SIGNIFICANCE_LEVEL\n        if self.operator in "
           "(\">\", \">=\"):\n            return False\n        return self.value < "
           "SIGNIFICANCE_LEVEL",
           '"<0.05" written as not significant'),
    Mutant("size_1_23", V, r"\d{1,3}(?:,\d{3})+\s*|\s*\d+\s*",
           r"\d{1,3}(?:,\d{2,3})+\s*|\s*\d+\s*", '"1,23" accepted as a size'),
    Mutant("percent_signs", V, 'estimate = parse_estimate(raw.replace("%", ""))',
           "estimate = parse_estimate(raw)", '"30.8% (20.1%, 41.5%)" refused'),
    Mutant("duplicate_measure", "pytest_rwe/study/result_keys.py",
           'problems.append((where, f"{stem}!{measure.value} is given twice; keep one"))',
           "pass", "a measure given twice accepted"),
    Mutant("outcome_direction", "pytest_rwe/study/model.py", "        if effect.value > null:",
           "        if effect.value < null:", "the summarizer's direction flipped"),
    Mutant("redaction_list", "pytest_rwe/providers/vendors.py",
           'names = [name for v in VENDORS for name in v.key_variables]',
           'names = [name for v in VENDORS for name in v.key_variables if "GOOGLE" not in name]',
           "GOOGLE_API_KEY left out of the redaction list"),
    Mutant("redaction_shape", "pytest_rwe/redact.py", "AIza[0-9A-Za-z_\\-]{30,}",
           "AIza[0-9A-Za-z_\\-]{40,}", "Google-shaped keys not redacted"),
    # reading the summary
    Mutant("negation_window", R + "cues.py", "max(lo, pos - 8) - 1, -1)",
           "max(lo, pos - 2) - 1, -1)", 'the negation window cut to one word'),
    Mutant("negation_not", R + "lexicon.py", 'NEGATORS = words("no not non',
           'NEGATORS = words("no non', '"not" no longer negates'),
    Mutant("hedge", R + "cues.py",
           "hedged = bool(lexicon.HEDGE_BEFORE.search(before) or lexicon.HEDGE_AFTER.match(after))",
           "hedged = False", "hedges ignored"),
    Mutant("abbreviation", R + "abbreviations.py", "            out.append(inner)\n",
           "            pass\n", "a name's abbreviation ignored"),
    Mutant("partial_name", R + "outcomes.py",
           "elif 2 * strong >= len(variant.strong) and strong and not variant.part:",
           "elif False:", "part of a name never matches"),
    Mutant("list_of_outcomes", R + "claim_parts.py",
           "if pos in firsts and cue is not None and unknown <= 6 and not excepted:",
           "if pos in firsts and cue is not None and unknown < 0 and not excepted:",
           "a cue no longer reaches the names listed after it"),
    Mutant("comparison_side", R + "groups.py",
           "            return after not in _TIMES, False",
           "            return False, False",
           '"than"/"compared with" no longer mark the reference group'),
    Mutant("role_control", R + "group_words.py", '        return "role-control"',
           "        return None",
           '"the control group" not recognized'),
    Mutant("relative_pronoun", R + "sides.py",
           "            return Side(antecedent[-1].group, True)", "            pass",
           '"..., which had" no longer refers back'),
    Mutant("unknown_group", R + "sides.py",
           '        return Side("unknown", True, UNKNOWN_GROUP)',
           '        return Side("intervention", True)',
           "an unknown group read as the intervention"),
    Mutant("p_words", R + "claim_parts.py", "    return value < 0.05\n",
           "    return value < 0.5\n", 'a written "p = 0.24" read as significant'),
    Mutant("interval_significance", R + "claim_parts.py",
           "return not (min(low, high) <= null <= max(low, high))",
           "return min(low, high) <= null <= max(low, high)",
           "an interval across the null read as significant"),
    Mutant("abstain_not_mentioned", R + "completeness.py",
           "unsure = table[0] or any(sole or (not c.generic and _could_be_about(",
           "unsure = False and any(sole or (not c.generic and _could_be_about(",
           "an ungrounded claim no longer stops \"not mentioned\""),
    Mutant("no_difference_reports", R + "completeness.py",
           'if statuses & {"difference", "bare"}:',
           'if statuses & {"difference", "bare", "null"}:',
           '"no difference" counted as reporting a significant outcome'),
    Mutant("only_named_reports", R + "completeness.py", '    return "named"',
           '    return "bare"', '"X was also examined" counted as reporting X'),
    Mutant("could_be_about_anything", R + "completeness.py",
           "    words = set(index.names.get(key, ()))\n",
           "    return True\n", "any ungrounded claim stops \"not mentioned\""),
    # reading the summary, second round (issue 14): names, subgroups, compositions
    Mutant("timepoint_whole_sentence", R + "outcome_places.py",
           "if not any(b < first or a > last for a, b in bounds):", "if True:",
           "a name takes every timepoint of its sentence (back / leg pain)"),
    Mutant("subgroup_every_qualifier", R + "strata.py", "    if full:\n        return full",
           "    if full:\n        return list(keys)", "a base names every subgroup at once"),
    Mutant("qualifier_negation", R + "strata.py", "negated = bool(back & _NEGATIONS)",
           "negated = False and bool(back & _NEGATIONS)",
           '"without diabetes" read as the "diabetes" subgroup'),
    Mutant("consonant_abbreviation", R + "name_index.py",
           "return all(letter in letters for letter in short)", "return False",
           '"htn" no longer abbreviates "hypertension"'),
    Mutant("declined_less", R + "compositions.py",
           'kinds[pos] = "higher" if rising == more else "lower"',
           'kinds[pos] = "lower" if rising == more else "higher"',
           '"eGFR declined less" read as lower'),
    Mutant("and_a_half", R + "cues.py", 'tokens[pos - 1].text.lower() == "a" and',
           'tokens[pos - 1].text.lower() == "an" and', '"four and a half times" read as halved'),
    Mutant("lived_longer", R + "lexicon.py", 'LIVED = words("lived survived live survive")',
           'LIVED = words("")', '"lived longer" no longer about death'),
    Mutant("neither_nor", R + "cues.py", 'elif word == "neither" and seen_nor:',
           'elif False:', '"neither A (...) nor B (...) differed" read as a difference'),
    Mutant("list_own_value", R + "claim_parts.py", "                valued = True",
           "                valued = False", '"A +1.81, B +0.67 and C lower": lower for all'),
    Mutant("hedge_window", R + "cues.py", "    cut = runs[0] if subject and runs else",
           "    cut = None if subject and runs else",
           "a hedge after the next outcome's name taken for this one"),
    Mutant("nearly_tolerance", R + "approximate.py", "NEAR_BELOW = 0.15", "NEAR_BELOW = 0.45",
           '"nearly three times" accepted for RR 1.86'),
    Mutant("more_than_bound", R + "approximate.py", "        return value, value * (1 + ABOVE)",
           "        return value * (1 - NEAR_BELOW), value * (1 + ABOVE)",
           '"more than three times" accepted for OR 2.71'),
    Mutant("share_points", R + "approximate.py", "SHARE_POINTS = 5.0", "SHARE_POINTS = 10.0",
           '"roughly three quarters" accepted for 81.3%'),
    Mutant("misplaced_share", R + "owned.py",
           "    if not others or any(nested(study, keys, {e.outcome or \"\"}) for e in others):"
           "\n        return None",
           "    if True:\n        return None", "a share given to the wrong outcome accepted"),
    Mutant("baseline_by_layout", R + "number_groups.py", "else _valued_group(analysis, number))",
           "else None)", '"41.2 years in the controls and 40.9 in the MS patients" swap accepted'),
    Mutant("timepoint_swap", R + "numbers.py", "            timepoint_swap = len(local) == 1",
           "            timepoint_swap = False and len(local) == 1",
           "another timepoint's estimate accepted"),
    Mutant("named_near", R + "number_owners.py",
           "    return any(names.words_matching(t.norm) & words or t.norm in words",
           "    return False and any(names.words_matching(t.norm) & words or t.norm in words",
           "a number of an outcome named but not found called moved"),
    Mutant("composite_components", R + "claims.py", "            return back - 1 in named",
           "            return False", "the components of a composite read as claims"),
    # groups, second round
    Mutant("compared_list", R + "groups.py", "if plain and joined:", "if False:",
           '"than A (...) and B" no longer makes B compared'),
    Mutant("cue_own_group", R + "sides.py", "    if between is not None and len(",
           "    if False and len(", "two cues in a clause no longer take a group each"),
    Mutant("combination", R + "groups.py", '            labels[pos] = "intervention"',
           "            pass", '"KNO3 and diode laser" read as both groups'),
    Mutant("capital_initials", R + "group_words.py",
           'return initials if len(initials) == 2 else ""', 'return ""',
           '"MS" no longer names the multiple sclerosis group'),
    Mutant("role_word_exact", R + "group_words.py", '        return norm in (word, word + "s")',
           "        return same_word(norm, word)", '"controlling" read as the control group'),
    Mutant("values_over_sd", R + "group_values.py", 'text == "±" or text in _UNITS',
           'text == "~~" or text in _UNITS', '"24.25±3.41 minutes in the A group" unread'),
    Mutant("unknown_is_other", R + "group_values.py",
           "if len(named) != 1 or len(unknown) != 1 or len(refs) != 2:", "if True:",
           '"75% of the surgery group vs 27.3% of the NSM group" unread'),
    Mutant("this_is_the_outcome", R + "antecedents.py",
           'if lo != s_lo or tokens[lo].text.lower() not in ("this", "it")', "if True",
           '"This was significantly lower" no longer about the outcome just named'),
    Mutant("but_not", R + "groups.py", '        return True, False  # "Telmisartan, but not',
           '        return False, False  # "Telmisartan, but not',
           '"A, but not B, reduced X" read as both groups'),
    # numbers
    Mutant("p_bound_lt", R + "bounds.py", "return entry.value <= number.value + 1e-12",
           "return entry.value >= number.value - 1e-12", '"p < 0.01" accepted for p = 0.018'),
    Mutant("p_bound_own", R + "numbers.py", "            if bound and own:",
           "            if False and own:", "a bound held by another outcome accepted"),
    Mutant("level_95", R + "number_roles.py", "if number.value == 95 and number.is_percent",
           "if number.value == 90 and number.is_percent", 'the "95" of "95% CI" checked'),
    Mutant("hedge_tolerance", R + "approximate.py", "HEDGE_TOLERANCE = 0.05",
           "HEDGE_TOLERANCE = 0.15", '"about 0.9" accepted for 0.82'),
    Mutant("word_tolerance", R + "approximate.py", "WORD_TOLERANCE = 0.10",
           "WORD_TOLERANCE = 0.40", '"roughly doubled" accepted for HR 1.30'),
    Mutant("ratio_percent", R + "index.py", "round((1 - value) * 100, 10)",
           "round((1 + value) * 100, 10)", '"24% lower" for HR 0.76 refused'),
    # findings as data
    Mutant("finding_offsets", "pytest_rwe/rules/diagnostics.py",
           '{"quote": finding.quote, "start": finding.start, "end": finding.end,',
           '{"quote": finding.quote, "start": finding.end, "end": finding.start,',
           "a finding's offsets swapped"),
    Mutant("quote_loose_match", R + "quotes.py", "    at = folded.find(needle) if needle else -1",
           "    at = -1", "a quote differing in case or spacing not found"),
    Mutant("interval_outside", R + "consistency.py",
           "        if _outside(point, low, high, tolerance) and _outside(-point, low, high, "
           "tolerance):", "        if False:", '"PR 1.25 (1.33-1.74)" accepted'),
    Mutant("timepoint_written", R + "at_time.py",
           "            if fits and all(o is not at[0] for o, _ in fits):",
           "            if False:", "a value written for another time point accepted"),
    Mutant("nested_names", R + "owned.py", "    return any(a and b and a != b and (b <= a or "
           "(either and a <= b))", "    return any(a and b and a != b and False",
           '"fatal (HR 1.33)" read as a value moved from another outcome'),
    Mutant("reported_by_estimate", R + "reported.py", "    if own:\n        return own",
           "    if False:\n        return own", '"64% lower risk of low potassium (HR 0.36)" '
           "called not mentioned"),
    Mutant("hedged_point", R + "numbers.py",
           '"\\bof\\b|\\bwas\\b|\\bis\\b|\\bwere\\b)?\\s*(?:\\b(?:about|',
           '"\\bof\\b|\\bwas\\b|\\bis\\b|\\bwere\\b)?\\s*(?:\\b(?:',
           '"HR of about 0.9" for HR 0.82 accepted as its upper bound 0.93 rounded'),
)


def _run(args: list[str]) -> bool:
    """True when the tests fail (the mutant is caught)."""
    done = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                           *args], cwd=ROOT, capture_output=True, text=True, check=False)
    return done.returncode != 0


def check(mutant: Mutant) -> tuple[bool, str]:
    path = ROOT / mutant.path
    original = path.read_text(encoding="utf-8")
    count = original.count(mutant.old)
    if count != 1:
        return False, f"the fragment occurs {count} times in {mutant.path}: fix the mutant"
    path.write_text(original.replace(mutant.old, mutant.new), encoding="utf-8")
    try:
        if _run(list(TESTS)):
            return True, "caught by the tests"
        if _run(["cases"]):
            return True, "caught by pytest cases"
        return False, "SURVIVED: every test stays green"
    finally:
        path.write_text(original, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("names", nargs="*", help="mutants to run (default: all)")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    args = parser.parse_args(argv)
    chosen = [m for m in MUTANTS if not args.names or m.name in args.names]
    if args.list:
        for m in chosen:
            print(f"{m.name:24} {m.path:36} {m.what}")
        return 0
    caught = 0
    started = time.perf_counter()
    for mutant in chosen:
        ok, how = check(mutant)
        caught += ok
        print(f"{'caught ' if ok else 'MISSED '} {mutant.name:24} {mutant.what}: {how}",
              flush=True)
    print(f"{caught} of {len(chosen)} planted bugs caught in "
          f"{time.perf_counter() - started:.0f} s")
    return 0 if caught == len(chosen) else 1


if __name__ == "__main__":
    sys.exit(main())
