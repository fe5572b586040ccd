"""The report's ``variants`` section from records of a prompt-variant run, and its renderings."""

from __future__ import annotations

import json
from typing import Any

from report_records import FAST, record

from pytest_rwe.report import build_report, plain, render_html, render_markdown, render_summary

META = {"plugin_version": "0", "git_commit": None, "created_at": "2026-12-01T00:00:00+00:00"}


def _variant(rec: dict[str, Any], model: str, variant: str) -> dict[str, Any]:
    return rec | {"model": f"{model}+{variant}", "variant": variant, "variant_of": model}


def variant_run(model: str = "openai/gpt-x", studies: int = 8) -> list[dict[str, Any]]:
    """Variant "terse" gets direction wrong on every study; "default" gets it right."""
    records = []
    for i in range(studies):
        study = f"study_{i:02d}"
        records.append(_variant(record(model, study, latency=1.0), model, "default"))
        wrong = {"direction_of_effect": [0, 0, 0]}
        records.append(_variant(record(model, study, wrong, latency=1.0 + i / 100), model,
                                "terse"))
    return records


PROMPTS = {"sha256": "a" * 64, "templates": {},
           "variants": {"default": {"sha256": "a" * 64, "templates": {}},
                        "terse": {"sha256": "b" * 64, "templates": {}}}}


def test_a_variant_run_compares_each_variant_with_the_reference() -> None:
    report = build_report(variant_run(), FAST, models=["openai/gpt-x+default",
                                                       "openai/gpt-x+terse"],
                          jury=["judge/a", "judge/b", "judge/c"], meta=META, prompts=PROMPTS,
                          variants=["default", "terse"])
    json.dumps(report, allow_nan=False)
    section = report["variants"]
    assert section["names"] == ["default", "terse"] and section["reference"] == "default"
    assert section["min_studies"] == 6 and section["jury_note"] is None
    [comp] = section["comparisons"]
    assert comp["model"] == "openai/gpt-x" and comp["variant"] == "terse"
    assert (comp["reference_arm"], comp["variant_arm"]) == ("openai/gpt-x+default",
                                                            "openai/gpt-x+terse")
    assert comp["studies"] == 8 and comp["notes"] == []
    direction = comp["differences"]["direction_of_effect"]
    assert direction["mean"] == -1.0 and direction["verdict"] == "real"
    assert comp["differences"]["completeness"]["verdict"] == "not resolved"
    assert comp["real"] == ["direction_of_effect", "weighted_score", "inference_time"]
    # every arm is its own entry in the rest of the report, each result names its variant
    assert list(report["models"]) == ["openai/gpt-x+default", "openai/gpt-x+terse"]
    assert {(r["variant"], r["variant_of"]) for r in report["results"]} == {
        ("default", "openai/gpt-x"), ("terse", "openai/gpt-x")}

    text = "\n".join(plain(render_summary(report)))
    assert "prompt variants: each variant minus default" in text
    assert "openai/gpt-x: terse vs default over 8 studies: real differences on direction" in text
    assert "direction -1.00 [-1.00, -1.00] REAL" in text
    assert "complete +0.00 [+0.00, +0.00] not resolved" in text
    md = render_markdown(report)
    assert "### Prompt variants" in md and "**REAL**" in md
    html = render_html(report)
    assert "<h2>Prompt variants</h2>" in html and "<strong>REAL</strong>" in html


def test_a_run_without_variants_has_no_section() -> None:
    report = build_report([record("m/a", "s1"), record("m/b", "s1")], FAST, meta=META)
    assert report["variants"] is None
    assert "prompt variants" not in "\n".join(plain(render_summary(report)))
    assert "Prompt variants" not in render_markdown(report)
    assert "Prompt variants" not in render_html(report)


def test_builtin_models_and_identical_prompts_are_said_to_be_unable_to_differ() -> None:
    # the first variant's calls were slower (warm-up): not a difference the prompt made
    records = [_variant(record("builtin/template", f"s{i}", jury=("builtin/rules",),
                               latency=0.002 if v == "base" else 0.0),
                        "builtin/template", v) for i in range(6) for v in ("base", "copy")]
    same = {"variants": {"base": {"sha256": "c" * 64}, "copy": {"sha256": "c" * 64}}}
    report = build_report(records, FAST, jury=["builtin/rules"], meta=META, prompts=same,
                          variants=["base", "copy"])
    [comp] = report["variants"]["comparisons"]
    assert comp["real"] == []
    time = comp["differences"]["inference_time"]
    assert time["ci_high"] < 0 and time["verdict"] == "not resolved"
    assert time["note"] == "a builtin model's time differences are measurement noise"
    assert any("builtin/template reads the study, not the prompt" in n for n in comp["notes"])
    assert any("copy has the same prompt templates as base" in n for n in comp["notes"])
    assert report["variants"]["jury_note"] is not None
    text = "\n".join(plain(render_summary(report)))
    assert "no difference resolved" in text and "its variants cannot differ" in text
    assert "its variants cannot differ" in render_markdown(report)


def test_the_reference_is_the_first_configured_variant_present() -> None:
    records = variant_run()
    report = build_report(records, FAST, meta=META, variants=["terse", "default"])
    [comp] = report["variants"]["comparisons"]
    assert (comp["reference"], comp["variant"]) == ("terse", "default")
    assert comp["differences"]["direction_of_effect"]["mean"] == 1.0
    # only one variant of a model in the records: nothing to compare, but the names stay
    alone = build_report([r for r in records if r["variant"] == "terse"], FAST, meta=META,
                         variants=["default", "terse"])
    assert alone["variants"]["comparisons"] == []


def test_each_model_is_compared_with_its_own_reference_only() -> None:
    # model a: "long" is worse than "default" on numbers; model b: no difference at all;
    # a third variant of model a only
    records = []
    for i in range(8):
        study = f"study_{i:02d}"
        for model, variant, numbers in [("m/a", "default", [1, 1, 1]), ("m/a", "long", [0, 0, 0]),
                                        ("m/a", "short", [1, 1, 1]), ("m/b", "default", [0, 0, 0]),
                                        ("m/b", "long", [0, 0, 0])]:
            records.append(_variant(record(model, study, {"numbers_accurate": numbers}),
                                    model, variant))
    report = build_report(records, FAST, meta=META, variants=["default", "long", "short"])
    found = {(c["model"], c["variant"]): c for c in report["variants"]["comparisons"]}
    assert sorted(found) == [("m/a", "long"), ("m/a", "short"), ("m/b", "long")]
    assert {c["reference"] for c in found.values()} == {"default"}
    assert found[("m/a", "long")]["real"] == ["numbers_accurate", "weighted_score"]
    assert found[("m/a", "long")]["differences"]["numbers_accurate"]["mean"] == -1.0
    assert found[("m/a", "short")]["real"] == []
    assert found[("m/b", "long")]["real"] == []  # b's variants are the same: nothing crosses
