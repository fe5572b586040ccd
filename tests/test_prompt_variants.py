"""Prompt variants: the options parsed, each variant's templates layered, the engine's arms."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import pytest

from pytest_rwe.caller import CallLabel
from pytest_rwe.engine import build_engine, engine_config
from pytest_rwe.prompts import load_prompts, load_variants
from pytest_rwe.providers.base import (
    GenerationRequest,
    GenerationResult,
    JudgeTask,
    Provider,
    SummarizeTask,
)
from pytest_rwe.providers.registry import register_provider
from pytest_rwe.settings import (
    PromptVariant,
    SettingsError,
    arm_name,
    engine_settings,
    parse_variants,
)
from pytest_rwe.study import load_study

ROOT = Path(__file__).resolve().parent.parent
STUDY = ROOT / "cases" / "studies" / "hospital_shift_work_metabolic_syndrome.json"
SUMMARIZE = "summarize_cross_sectional.txt"
TERSE = "Terse, please.\n$question\n$design_json\n$results_json\n"


def _folder(root: Path, name: str, files: dict[str, str] | None = None) -> Path:
    folder = root / name
    folder.mkdir()
    for file, text in (files or {}).items():
        (folder / file).write_text(text, encoding="utf-8")
    return folder


def test_one_prompt_set_is_no_variant_run(tmp_path: Path) -> None:
    assert parse_variants([], [], tmp_path) == ()
    assert parse_variants(["prompts"], [], tmp_path) == ()  # the one-folder override


def test_repeated_prompts_folders_are_variants_named_after_them(tmp_path: Path) -> None:
    a, b = _folder(tmp_path, "plain"), _folder(tmp_path, "terse")
    found = parse_variants(["plain", "terse"], [], tmp_path)
    assert found == (PromptVariant("plain", a, "--rwe-prompts plain"),
                     PromptVariant("terse", b, "--rwe-prompts terse"))


def test_variant_options_alone_join_the_default_first(tmp_path: Path) -> None:
    folder = _folder(tmp_path, "v2")
    found = parse_variants([], ["terse=v2"], tmp_path)
    assert [(v.name, v.folder) for v in found] == [("default", None), ("terse", folder)]
    mixed = parse_variants(["v2"], ["again=v2"], tmp_path)
    assert [v.name for v in mixed] == ["v2", "again"]


def test_variants_from_the_ini_are_named_so_and_found_from_the_rootdir(tmp_path: Path) -> None:
    root, here = tmp_path / "root", tmp_path / "root" / "sub"
    here.mkdir(parents=True)
    folder = _folder(root, "v2")
    found = parse_variants([], ["terse=v2"], here, variants_from="ini rwe_variants",
                           variants_here=root)
    assert found[1] == PromptVariant("terse", folder, "ini rwe_variants terse=v2")
    with pytest.raises(SettingsError, match="ini rwe_variants terse=nowhere: no such folder"):
        parse_variants([], ["terse=nowhere"], here, variants_from="ini rwe_variants",
                       variants_here=root)


@pytest.mark.parametrize(("prompts", "variants", "expected"), [
    ([], ["terse"], "--rwe-variant 'terse' is not NAME=DIR; e.g. --rwe-variant terse="),
    ([], ["=v2"], "is not NAME=DIR"),
    ([], ["a b=v2"], "--rwe-variant a b=v2: the variant name 'a b' may hold only letters"),
    ([], ["x+y=v2"], "may hold only letters, digits"),
    ([], ["default=v2"], "--rwe-variant default=v2: the variant name 'default' is already "
                         "taken by the run's default prompts; give each variant its own name"),
    ([], ["t=v2", "t=v2"], "--rwe-variant t=v2: the variant name 't' is already taken by "
                           "--rwe-variant t=v2"),
    (["v2", "../x/v2"], [], "the variant name 'v2' is already taken by --rwe-prompts v2"),
    ([], ["t=missing"], "--rwe-variant t=missing: no such folder "),
    (["v2", "gone"], [], "--rwe-prompts gone: no such folder "),
])
def test_usage_errors_name_the_option_the_value_and_the_fix(
        tmp_path: Path, prompts: list[str], variants: list[str], expected: str) -> None:
    _folder(tmp_path, "v2")
    (tmp_path / "x").mkdir()
    _folder(tmp_path / "x", "v2")
    with pytest.raises(SettingsError) as info:
        parse_variants(prompts, variants, tmp_path)
    assert expected in str(info.value)
    if "no such folder" in expected:
        assert "create it with the prompt templates this variant changes" in str(info.value)


def test_a_variant_overrides_some_templates_the_rest_come_from_the_default(
        tmp_path: Path) -> None:
    base = _folder(tmp_path, "base", {"judge_completeness.txt": (
        "completeness? $summarization_prompt $summary\n")})
    terse = _folder(tmp_path, "terse", {SUMMARIZE: TERSE})
    sets = load_variants([PromptVariant("default", None, "the run's default prompts"),
                          PromptVariant("terse", terse, "--rwe-variant terse=terse")], base)
    packaged = load_prompts(None)
    default, variant = sets["default"], sets["terse"]
    assert default[SUMMARIZE] == packaged[SUMMARIZE]
    assert default["judge_completeness.txt"].source == str(base / "judge_completeness.txt")
    assert variant[SUMMARIZE].text == TERSE
    assert variant["judge_completeness.txt"] == default["judge_completeness.txt"]
    assert variant["summarize_cohort.txt"] == packaged["summarize_cohort.txt"]


def test_an_unknown_template_in_a_variant_folder_names_the_option(tmp_path: Path) -> None:
    folder = _folder(tmp_path, "terse", {"summarise_cohort.txt": TERSE})
    with pytest.raises(SettingsError) as info:
        load_variants([PromptVariant("terse", folder, "--rwe-variant terse=terse")], None)
    message = str(info.value)
    assert message.startswith("--rwe-variant terse=terse: ")
    assert "unknown template name 'summarise_cohort.txt'" in message
    assert "summarize_cohort.txt" in message and "rename or remove the file" in message


class Echo(Provider):
    """Summarizes with the first line of its prompt; as a juror, records what it was shown."""

    name = "echotest"
    uses_store = False
    shown: ClassVar[list[tuple[str, str]]] = []

    async def generate(self, request: GenerationRequest) -> GenerationResult:
        text = request.messages[0].content
        if isinstance(request.task, SummarizeTask):
            return GenerationResult(f"{self.model} says {text.splitlines()[0]}", 0.0)
        assert isinstance(request.task, JudgeTask)
        Echo.shown.append((self.model, text))
        criterion = request.task.criterion
        return GenerationResult(f'{{"{criterion}": {{"score": 1, "explanation": "ok"}}}}', 0.0)


register_provider("echotest", Echo)


def test_the_engine_calls_a_variants_model_with_its_templates(tmp_path: Path) -> None:
    terse = load_prompts(_folder(tmp_path, "terse", {SUMMARIZE: TERSE}))
    default = load_prompts(None)
    settings = engine_settings(jury=("echotest/juror",), store=None, max_attempts=1,
                               concurrency=2)
    engine = build_engine(settings, config=engine_config(
        settings, prompts=default, variants={"default": default, "terse": terse}))
    caller = engine.caller
    labels: list[CallLabel] = []
    call = caller.call

    async def labelled(model: str, request: GenerationRequest, label: CallLabel,
                       **kwargs: Any) -> GenerationResult:
        labels.append(label)
        return await call(model, request, label, **kwargs)

    caller.call = labelled  # type: ignore[method-assign]
    study = load_study(STUDY)
    try:
        plain = engine.evaluate(arm_name("echotest/model", "default"), study)
        Echo.shown.clear()
        short = engine.evaluate(arm_name("echotest/model", "terse"), study)
        unknown = engine.evaluate("echotest/model+nope", study)
    finally:
        engine.close()
    assert short.model == "echotest/model+terse"
    assert short.summary is not None and short.summary.text == "model says Terse, please."
    assert plain.summary is not None and "Terse" not in plain.summary.text
    # the jury is shown the variant's summarization prompt and summary
    assert Echo.shown and all("Terse, please." in text and "model says Terse" in text
                              for _, text in Echo.shown[:3])
    # the store's labels name the model under test and the variant apart
    terse_labels = [(lb.kind, lb.model, lb.subject) for lb in labels if lb.variant == "terse"]
    assert sorted(terse_labels) == [("judge", "echotest/juror", "echotest/model")] * 3 + [
        ("summary", "echotest/model", None)]
    assert all(lb.describe().endswith("(prompt variant terse)") for lb in labels
               if lb.variant == "terse")
    # a suffix that is no variant is part of the model's name
    assert unknown.summary is not None and unknown.summary.text.startswith("model+nope says")
