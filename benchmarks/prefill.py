"""Generated studies and a prefilled response store, for the synthetic replay benchmark.

The store is filled exactly as a live run would fill it (same providers, prompts, settings
and keys), with the builtin summarizer's text as each model's summary and the rules juror's
reply as each judge's answer, so the replay exercises the real plugin path without calls.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

from pytest_rwe.caller import filed_label
from pytest_rwe.prompts import judge_request, load_prompts, summarize_request
from pytest_rwe.providers.base import GenerationResult, GenerationSettings, Usage
from pytest_rwe.providers.registry import create_provider
from pytest_rwe.rules import judge
from pytest_rwe.rules.summarizer import summarize
from pytest_rwe.rules.synthetic import random_raw
from pytest_rwe.store import CallLabel, ResponseStore, prompt_sha256, request_key
from pytest_rwe.study import Study, parse_study
from pytest_rwe.verdict import CRITERIA


def write_studies(folder: Path, count: int, rng: random.Random) -> list[Study]:
    """Write ``count`` random valid studies as JSON files; return them parsed."""
    folder.mkdir(parents=True, exist_ok=True)
    studies = []
    for index in range(count):
        raw = random_raw(rng, index)
        path = folder / f"{raw['id']}.json"
        path.write_text(json.dumps(raw, indent=2), encoding="utf-8")
        studies.append(parse_study(raw, path))
    return studies


def prefill_store(
    studies: Sequence[Study], models: Sequence[str], jury: Sequence[str], root: Path
) -> int:
    """Store one summary per (model, study) and every judge reply on it; return the count."""
    store = ResponseStore(root, "new", run_id="prefill")
    prompts = load_prompts(None)
    settings = GenerationSettings()
    providers = {name: create_provider(name) for name in (*models, *jury)}
    written = 0

    def save(name: str, label: CallLabel, request_messages: object, key: str, text: str) -> None:
        provider = providers[name]
        label = filed_label(label)  # the names the caller files a call under
        store.save(label, key, GenerationResult(text, 1.0, Usage(1000, 200)),
                   provider=provider.name, model=provider.model,
                   settings=provider.effective_settings(settings),
                   prompt_sha256=prompt_sha256(request_messages))  # type: ignore[arg-type]

    for study in studies:
        summary = summarize(study)
        replies = {c: judge(study, summary, c).to_reply() for c in CRITERIA}
        for model in models:
            request = summarize_request(study, prompts, settings)
            key = request_key(providers[model], request, 0)
            save(model, CallLabel("summary", study.id, None, model), request.messages, key,
                 summary)
            written += 1
            for juror in jury:
                for criterion in CRITERIA:
                    judged = judge_request(study, summary, criterion, prompts, settings)
                    key = request_key(providers[juror], judged, 0)
                    label = CallLabel("judge", study.id, criterion, juror, subject=model)
                    save(juror, label, judged.messages, key, replies[criterion])
                    written += 1
    store.close()
    return written
