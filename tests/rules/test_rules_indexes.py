"""The caches and indexes that keep the rules juror near-linear: each answers as the scan it
replaces, and an answer is never served for another object."""

from __future__ import annotations

import gc
import random
from typing import Any

import pytest

from pytest_rwe.rules.group_values import group_values
from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.index import Entry, StudyIndex, matches
from pytest_rwe.rules.memo import Memo
from pytest_rwe.rules.number_mentions import NumberMention, numbers_in
from pytest_rwe.rules.numbers import _near, _near_entries
from pytest_rwe.rules.outcome_places import by_numbers
from pytest_rwe.rules.text import Span, tokenize
from pytest_rwe.rules.truth import Fact
from pytest_rwe.study import Outcome


def test_memo_computes_once_per_owner_and_key() -> None:
    memo: Memo[str, int] = Memo()
    owner, other = [1], [1]  # equal but distinct: answers are per identity
    calls: list[str] = []

    def compute(tag: str) -> int:
        calls.append(tag)
        return len(calls)

    assert memo.get(owner, "k", lambda: compute("a")) == 1
    assert memo.get(owner, "k", lambda: compute("b")) == 1
    assert memo.get(other, "k", lambda: compute("c")) == 2
    assert memo.get(owner, "j", lambda: compute("d")) == 3
    assert calls == ["a", "c", "d"]


def test_memo_forgets_old_owners_and_never_serves_a_reused_id() -> None:
    memo: Memo[str, str] = Memo(owners=2)
    first, second, third = object(), object(), object()
    memo.get(first, "k", lambda: "first")
    memo.get(second, "k", lambda: "second")
    memo.get(third, "k", lambda: "third")
    assert memo.owners() == 2
    assert memo.get(first, "k", lambda: "again") == "again"  # evicted, computed anew
    # a new object at the id of a dropped one gets its own answers
    for _ in range(50):
        gone = object()
        memo.get(gone, "k", lambda: "gone")
        del gone
        gc.collect()
        fresh = object()
        assert memo.get(fresh, "k", lambda: "fresh") == "fresh"
        del fresh


def test_memo_bounds_the_answers_per_owner() -> None:
    memo: Memo[int, int] = Memo(per_owner=3)
    owner = object()
    for key in range(10):
        memo.get(owner, key, lambda key=key: key)
    assert memo.get(owner, 9, lambda: -1) == 9
    assert memo.get(owner, 0, lambda: -1) == -1  # cleared when full, computed again


def _number(value: float, decimals: int, hedged: bool = False) -> NumberMention:
    return NumberMention(value, decimals, Span(0, 1, "x"), False, False, "", 1.0, hedged)


def test_by_numbers_agrees_with_the_pairwise_scan() -> None:
    rng = random.Random(7)
    outcomes = [Outcome(f"outcome.o{i}_bin", f"o{i}", None, "bin", {}) for i in range(120)]
    facts = {o.key: Fact(o.key, "MD", round(rng.uniform(-3, 3), rng.choice((1, 2, 3))), None,
                         None, None, "", "", "") for o in outcomes}
    text = " ".join(f"{rng.uniform(-3, 3):.{rng.choice((0, 1, 2, 3))}f}" for _ in range(200))
    written = numbers_in(text)

    def pairwise(outcome: Outcome) -> bool:
        point = facts[outcome.key].point
        assert point is not None
        return any(n.decimals >= 1 and (matches(n.value, n.decimals, point)
                                        or matches(abs(n.value), n.decimals, abs(point)))
                   for n in written)

    expected = [o for o in outcomes if pairwise(o)]
    assert 0 < len(expected) < len(outcomes)
    assert by_numbers(outcomes, facts, written) == expected
    assert by_numbers(outcomes, facts, written) == expected  # from the kept sorted form
    # another list of numbers is its own: nothing kept from the first one applies
    assert by_numbers(outcomes, facts, numbers_in("9.99")) == []


def test_near_is_the_same_for_a_repeated_value_and_per_index() -> None:
    entries = [Entry(v, "effect", f"f{i}", f"o{i}", str(v)) for i, v in
               enumerate([0.87, 0.87, 0.9, 1.2, 0.871])]
    index = StudyIndex(entries)
    first = _near(index, _number(0.87, 2), ("effect",))
    assert [e.field for e in first] == ["f0", "f1", "f4"]
    first.clear()  # a caller's list is its own
    again = _near(index, _number(0.87, 2), ("effect",))
    assert again == list(_near_entries(index, _number(0.87, 2), ("effect",)))
    assert len(again) == 3
    assert [e.field for e in _near(index, _number(0.87, 3), ("effect",))] == ["f0", "f1"]
    assert _near(index, _number(0.83, 2), ("effect",)) == []
    assert [e.field for e in _near(index, _number(0.83, 2, hedged=True), ("effect",))] == [
        "f0", "f1", "f4"]
    other = StudyIndex([Entry(0.87, "effect", "g", "o", "0.87")])
    assert [e.field for e in _near(other, _number(0.87, 2), ("effect",))] == ["g"]


def test_group_values_kept_per_clause_and_refs() -> None:
    tokens = tokenize("Pain was 12.4% in the A group and 3.4% in the B group.")
    at = {t.text: i for i, t in enumerate(tokens)}
    refs = [GroupRef("intervention", at["A"], False, at["A"] + 1),
            GroupRef("control", at["B"], False, at["B"] + 1)]
    values = group_values(tokens, refs, 0, len(tokens))
    assert values is not None and (values.intervention, values.control) == (12.4, 3.4)
    assert group_values(tokens, refs, 0, len(tokens)) == values
    swapped = [GroupRef("control", at["A"], False, at["A"] + 1),
               GroupRef("intervention", at["B"], False, at["B"] + 1)]
    flipped = group_values(tokens, swapped, 0, len(tokens))
    assert flipped is not None and (flipped.intervention, flipped.control) == (3.4, 12.4)
    assert group_values(tokens, refs, 0, at["and"]) is None  # another range is asked anew
    same_words = tokenize("Pain was 12.4% in the A group and 3.4% in the B group.")
    assert same_words == tokens and same_words is not tokens
    assert group_values(same_words, swapped, 0, len(tokens)) == flipped


def test_null_talk_is_read_per_clause() -> None:
    from pytest_rwe.rules.number_roles import accepted_anyway as _accepted_anyway

    crossing = "the interval crosses 1 (HR 1.0)"
    plain = "the hazard ratio was 1.0"
    one = _number(1.0, 1)
    assert _accepted_anyway(crossing, one, Span(0, len(crossing), crossing))
    assert not _accepted_anyway(plain, one, Span(0, len(plain), plain))
    assert _accepted_anyway(crossing, one, Span(0, len(crossing), crossing))


def test_proportion_words_still_found_past_the_prefilter() -> None:
    from pytest_rwe.rules.approximate import approximations_in

    phrases = {"twice the risk": 2.0, "doubled": 2.0, "a two-fold risk": 2.0,
               "3 times the odds": 3.0, "2.5-fold": 2.5, "thrice": 3.0, "tripled": 3.0,
               "quadrupled": 4.0, "halved": 0.5, "by half": 0.5, "half again as likely": 1.5,
               "a third lower risk": 1 / 3, "two-thirds of patients": 200 / 3,
               "three quarters of patients": 75.0, "a fifth lower risk": 0.2,
               "a tenth lower risk": 0.1, "a fourth of the risk": 0.25}
    for phrase, value in phrases.items():
        found = approximations_in(f"The drug {phrase} was seen.")
        assert [round(a.value, 6) for a in found] == [round(value, 6)], phrase
    assert approximations_in("HR 0.87 (0.82 to 0.93), p = 0.02") == []
    assert [a.kind for a in approximations_in("four in five patients")] == ["share"]


def test_a_sign_after_a_number_and_spaces_is_read_as_before() -> None:
    def signed(text: str) -> list[float]:
        return [n.value for n in numbers_in(text)]

    assert signed("2.38-3.12") == [2.38, 3.12]  # a range
    assert signed("2.38 -3.12") == [2.38, -3.12]
    assert signed("10%-3") == [10.0, -3.0]
    assert signed("a\u20133") == [3.0]  # an en dash after a word joins, not a sign
    assert signed("x \n\t \u20134") == [4.0]  # across a run of spaces
    assert signed("\u20134") == [-4.0]
    assert signed("MD " + "  " * 500 + "-0.5") == [-0.5]


def test_outcomes_sharing_a_name_each_get_the_match_of_their_shared_words() -> None:
    from pathlib import Path

    from pytest_rwe.rules.name_index import build_outcome_index
    from pytest_rwe.rules.outcomes import _segment_candidates
    from pytest_rwe.study import parse_study
    from pytest_rwe.testing.studies import big_study_raw

    study = parse_study(big_study_raw(48), Path("big_48.json"))  # 16 names, 3 subgroups each
    index = build_outcome_index(study)
    tokens = tokenize("a lower risk of stroke 2 at 3 years")
    found = _segment_candidates(index, tokens, 0, len(tokens))
    by_key: dict[str, list[tuple[float, list[int]]]] = {}
    for strength, outcomes, positions in found:
        for outcome in outcomes:
            by_key.setdefault(outcome.key, []).append((strength, positions))
    strokes = sorted(k for k in by_key if ".stroke." in k)
    assert strokes == [f"outcome_3yrs.stroke.{i}_bin" for i in (1, 2, 3)]
    base = (1.25, [4])  # "stroke" alone, a part of each subgroup's name
    assert all(base in by_key[k] for k in strokes)
    assert (2.5, [4, 5]) in by_key["outcome_3yrs.stroke.2_bin"]  # the whole name
    assert (2.5, [4, 5]) not in by_key["outcome_3yrs.stroke.1_bin"]
    # one candidate per (strength, positions), holding every outcome matched there
    shared = [outcomes for strength, outcomes, positions in found if (strength, positions) == base]
    assert len(shared) == 1 and sorted(o.key for o in shared[0]) == strokes


def test_a_base_family_offers_the_subgroups_whose_words_are_written() -> None:
    from pathlib import Path

    from pytest_rwe.rules.name_index import build_outcome_index
    from pytest_rwe.rules.subgroups import _family, subgroups, word_places
    from pytest_rwe.study import parse_study
    from pytest_rwe.testing.studies import big_study_raw

    study = parse_study(big_study_raw(160), Path("big_160.json"))  # names of 9 or 10 subgroups
    index = build_outcome_index(study)
    family = _family(index, "strok")
    assert family is _family(index, "strok")  # built once per index and base
    assert family.keys == tuple(f"outcome_3yrs.stroke.{i}_bin" for i in range(1, 10))
    assert family.whole == ()
    tokens = tokenize("stroke 7 and stroke 3")
    few = word_places(index, tokens, 0, len(tokens))
    assert family.among(index, few) == ["outcome_3yrs.stroke.3_bin",
                                        "outcome_3yrs.stroke.7_bin"]
    many = {str(i): [0] for i in range(20)}  # more words than subgroups: every key
    assert family.among(index, many) == list(family.keys)
    # the name "stroke" alone, picked by the qualifier written beside it, through the index
    stroke = [index.outcomes[k] for k in family.keys]
    tokens = tokenize("a lower risk of stroke 3")
    picked = subgroups(index, stroke, tokens, [4, 5], [(0, len(tokens))], 0, len(tokens))
    assert [o.key for o in picked] == ["outcome_3yrs.stroke.3_bin"]
    tokens = tokenize("stroke 7 and stroke 3")  # both qualifiers stand within reach
    picked = subgroups(index, stroke, tokens, [3, 4], [(0, len(tokens))], 0, len(tokens))
    assert [o.key for o in picked] == ["outcome_3yrs.stroke.3_bin", "outcome_3yrs.stroke.7_bin"]
    # the base alone: the clause's qualifiers pick (read once per clause, kept per index)
    tokens = tokenize("stroke was lower, mostly in subgroup 7")
    picked = subgroups(index, stroke, tokens, [0], [(0, len(tokens))], 0, len(tokens))
    assert [o.key for o in picked] == ["outcome_3yrs.stroke.7_bin"]
    other = build_outcome_index(parse_study(big_study_raw(48), Path("big_48.json")))
    picked = subgroups(other, [other.outcomes[k] for k in _family(other, "strok").keys],
                       tokens, [0], [(0, len(tokens))], 0, len(tokens))
    assert picked == []  # its stroke subgroups are 1 to 3: none is written
    from pytest_rwe.rules.subgroups import _clause_places

    kept = _clause_places(index, tokens, 0, len(tokens))
    assert kept is _clause_places(index, tokens, 0, len(tokens))
    assert kept == word_places(index, tokens, 0, len(tokens))
    assert _clause_places(other, tokens, 0, len(tokens)) is not kept  # not another index's


def test_brackets_answer_as_the_scan_back_from_each_position() -> None:
    from pytest_rwe.rules.number_groups import Brackets

    def scan_back(tokens: list[str], at: int, lo: int) -> int:
        depth = 0
        for pos in range(at - 1, lo - 1, -1):
            if tokens[pos] in ")]":
                depth += 1
            elif tokens[pos] in "([":
                if depth:
                    depth -= 1
                    continue
                return pos
        return -1

    rng = random.Random(11)
    for _ in range(300):
        texts = [rng.choice("()[]ab") for _ in range(rng.randint(0, 14))]
        brackets = Brackets(tokenize(" ".join(texts)))
        for at in range(len(texts) + 1):
            for lo in range(at + 1):
                found = brackets.enclosing[at] if at < len(texts) else brackets.last_open
                assert (found if found >= lo else -1) == scan_back(texts, at, lo)
        for pos in range(len(texts)):
            assert brackets.next_close[pos] == next(
                (i for i in range(pos + 1, len(texts)) if texts[i] in ")]"), len(texts))


def test_operator_and_hedge_read_as_the_searches_they_skip() -> None:
    from pytest_rwe.rules.number_mentions import _HEDGE_RE, _OPERATOR_RE

    rng = random.Random(2)
    words = ["<", "<=", "≥", "less than", "Below", "under", "greater than", "MORE THAN",
             "over", "above", "exceeding", "about", "approx.", "approx", "roughly", "~",
             "close to", "nearly", "Almost", "some", "p =", "x", "at", "\u00a0", "\n", " "]
    operators = hedges = 0
    for _ in range(3000):
        before = "".join(rng.choice(words) + rng.choice(["", " ", "  "])
                         for _ in range(rng.randint(0, 4)))
        for number in numbers_in(before + "0.5"):
            if number.span.end != len(before) + 3:
                continue
            window = (before + "0.5")[max(0, number.span.start - 16):number.span.start]
            assert number.hedged == bool(_HEDGE_RE.search(window)), before
            window = (before + "0.5")[max(0, number.span.start - 14):number.span.start]
            operator = _OPERATOR_RE.search(window)
            assert bool(number.operator) == bool(operator), before
            operators += bool(operator)
            hedges += number.hedged
    assert operators > 500 and hedges > 500


def test_a_study_index_is_built_once_per_study_object() -> None:
    from pathlib import Path

    from pytest_rwe.rules.index import build_index
    from pytest_rwe.study import parse_study
    from pytest_rwe.testing.studies import big_study_raw

    study = parse_study(big_study_raw(16), Path("big_16.json"))
    assert build_index(study) is build_index(study)
    twin = parse_study(big_study_raw(16), Path("big_16.json"))
    assert build_index(twin) is not build_index(study)
    assert build_index(twin).entries == build_index(study).entries
    other = parse_study(big_study_raw(16, seed=1), Path("big_16.json"))
    assert build_index(other).entries != build_index(study).entries


def test_a_crowded_segment_offers_the_names_whose_words_it_writes() -> None:
    from pathlib import Path

    from pytest_rwe.rules.name_index import build_outcome_index
    from pytest_rwe.rules.outcomes import _CROWDED, _rarest_groups, _segment_candidates
    from pytest_rwe.study import parse_study
    from pytest_rwe.testing.studies import big_study_raw

    index = build_outcome_index(parse_study(big_study_raw(800), Path("big_800.json")))
    groups = _rarest_groups(index)
    assert groups is _rarest_groups(index)
    assert sorted(n for g in groups.values() for _, numbers in g for n in numbers) == sorted(
        n for numbers in index.rarest.values() for n in numbers)
    assert all(index.variants[n].strong == strong for g in groups.values()
               for strong, numbers in g for n in numbers)
    tokens = tokenize("a lower risk of stroke 2 at 3 years")
    present = frozenset().union(*(index.words_matching(t.norm) for t in tokens))
    assert sum(len(index.postings.get(w, ())) for w in present) > _CROWDED
    naive = {index.variants[n].key for w in present for n in index.rarest.get(w, ())
             if all(x in present for x in index.variants[n].strong)}
    found = {o.key for _, outcomes, _ in _segment_candidates(index, tokens, 0, len(tokens))
             for o in outcomes}
    assert found == naive
    assert {f"outcome_3yrs.stroke.{i}_bin" for i in range(1, 46)} <= found  # base "stroke"


def test_threads_sharing_the_caches_get_the_verdicts_of_one_thread() -> None:
    """The memos are module-wide: summaries judged at once on threads (the engine judges in
    a worker thread) must get what each gets alone."""
    import json
    from concurrent.futures import ThreadPoolExecutor
    from pathlib import Path

    from pytest_rwe.rules import judge_all
    from pytest_rwe.study import load_study

    root = Path(__file__).resolve().parents[2] / "cases"
    lines = (root / "golden" / "labeled" / "prose_dev.jsonl").read_text("utf-8").splitlines()
    items = [json.loads(line) for line in lines if line.strip()][:60]
    studies = {i["study_id"]: load_study(root / "studies" / f"{i['study_id']}.json")
               for i in items}

    def verdicts(item: dict[str, str]) -> str:
        found = judge_all(studies[item["study_id"]], item["text"])
        return repr(sorted((c, v.score, v.explanation, v.findings) for c, v in found.items()))

    alone = [verdicts(i) for i in items]
    for study_id in list(studies):  # fresh studies: every cache is filled by the threads
        studies[study_id] = load_study(root / "studies" / f"{study_id}.json")
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(verdicts, items * 2))
    assert together == alone * 2


def test_outside_brackets_skips_nested_intervals_and_their_brackets() -> None:
    from pytest_rwe.rules.text import outside_brackets, tokenize

    tokens = tokenize("HR 0.76 (95% CI [0.6, 0.9]) lower) in A")
    seen = [tokens[p].text for p in outside_brackets(tokens, 0, len(tokens))]
    # the stray ")" closes nothing and is left out, never a negative depth
    assert seen == ["HR", "0.76", "lower", "in", "A"]
    assert list(outside_brackets(tokens, 2, 12)) == []  # the interval, brackets and all


def test_a_clause_naming_many_outcomes_reads_its_ratio_and_its_values_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Both readings depend on the clause, not on which of its outcomes a claim is about; read
    # once per outcome they made a study of 800 outcomes take seconds (issue 11, item 5).
    from pytest_rwe.rules import clause_values, judge_all, reader
    from pytest_rwe.rules.summarizer import summarize
    from pytest_rwe.study import parse_study
    from pytest_rwe.testing.studies import big_study_raw

    study = parse_study(big_study_raw(48), "<memory>")
    # where each takes the clause's first and last token (group_values is also asked about
    # a whole sentence, with excluded= as a keyword: those calls are told apart)
    where = {"stated_ratio": 3, "group_values": 2}
    modules = {"stated_ratio": reader, "group_values": clause_values}
    calls: dict[str, list[tuple[Any, ...]]] = {name: [] for name in where}
    for name, at in where.items():
        real = getattr(modules[name], name)

        def counted(*args: Any, _real: Any = real, _name: str = name, _at: int = at,
                    **kwargs: Any) -> Any:
            calls[_name].append((*args[_at:_at + 2], *kwargs))
            return _real(*args, **kwargs)

        monkeypatch.setattr(modules[name], name, counted)
    judge_all(study, summarize(study))
    for name, clauses in calls.items():
        assert clauses, f"{name} was never asked: the test no longer reaches it"
        assert len(clauses) == len(set(clauses)), f"{name} read a clause more than once"
