"""The provider interface: one async ``generate`` from a request to text, latency and tokens.

Vendor providers see only ``messages`` and ``settings``. A request also carries its
``task`` (what is being asked, as structured data) so the builtin offline providers can
answer without parsing prompt text, and so errors can name the study.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pytest_rwe import deprecated_method, renamed_attributes
from pytest_rwe.settings import DEFAULT_TEMPERATURE

if TYPE_CHECKING:
    from pytest_rwe.study import Study
    from pytest_rwe.verdict import Criterion

#: who says a message of a conversation (a process's part in an xdist run is
#: :data:`pytest_rwe.store.leader.ProcessRole`)
MessageRole = Literal["system", "user", "assistant"]


@dataclass(frozen=True)
class Message:
    role: MessageRole
    content: str


@dataclass(frozen=True)
class SummarizeTask:
    """Write a summary of ``study``."""

    study: Study


@dataclass(frozen=True)
class JudgeTask:
    """Score ``summary`` of ``study`` on one ``criterion``."""

    study: Study
    summary: str
    criterion: Criterion


Task = SummarizeTask | JudgeTask


@dataclass(frozen=True)
class GenerationSettings:
    """Generation settings; a provider drops those its model rejects (and records what it sent)."""

    temperature: float | None = DEFAULT_TEMPERATURE
    max_output_tokens: int | None = None  # None: the provider's model-aware default

    def to_dict(self) -> dict[str, Any]:
        return {"temperature": self.temperature, "max_output_tokens": self.max_output_tokens}


@dataclass(frozen=True)
class PromptOrigin:
    """Where a request's messages came from, for the response store: the templates they were
    rendered from (``(file name, sha256, source)``) and the hashes of the data rendered into
    them (``(name, sha256)``: the study, the judged summary). A replay whose prompt changed
    can then say which template or which data did.
    """

    templates: tuple[tuple[str, str, str], ...]
    inputs: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "templates": {name: {"sha256": sha, "source": source}
                          for name, sha, source in self.templates},
            "inputs": dict(self.inputs),
        }


@dataclass(frozen=True)
class GenerationRequest:
    """One model call: the full conversation, its settings, and what it is for."""

    messages: tuple[Message, ...]
    settings: GenerationSettings = field(default_factory=GenerationSettings)
    task: Task | None = field(default=None, compare=False)
    origin: PromptOrigin | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Usage:
    """Tokens of one call as the vendor reported them; None where it reported nothing.

    ``input_tokens`` counts every prompt token, cached ones included; ``output_tokens`` every
    generated token, reasoning (thinking) ones included. ``reasoning_tokens`` and
    ``cached_tokens`` are the parts of those totals the vendor states apart (None when it
    does not: a count of 0 means the vendor said 0).
    """

    input_tokens: int | None = None
    output_tokens: int | None = None
    reasoning_tokens: int | None = None
    cached_tokens: int | None = None

    def to_dict(self) -> dict[str, int | None]:
        return {"input_tokens": self.input_tokens, "output_tokens": self.output_tokens,
                "reasoning_tokens": self.reasoning_tokens, "cached_tokens": self.cached_tokens}


@dataclass(frozen=True)
class GenerationResult:
    """What a model returned, how long it took (seconds) and what it cost in tokens."""

    text: str
    latency_s: float
    usage: Usage = field(default_factory=Usage)
    replayed: bool = False

    def to_record(self) -> dict[str, Any]:
        """The old name of :meth:`to_dict`, for one release."""
        deprecated_method("GenerationResult.to_record", "GenerationResult.to_dict")
        return self.to_dict()

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "latency_s": self.latency_s} | self.usage.to_dict()


class ProviderError(Exception):
    """A call that failed for good (after retries); the message never contains a key."""

    def __init__(
        self,
        model: str,
        message: str,
        *,
        retryable: bool = False,
        retry_after: float | None = None,
        status: int | None = None,
    ) -> None:
        self.model = model
        self.retryable = retryable  # 429, 5xx, timeouts and connection errors
        self.retry_after = retry_after  # seconds, from the Retry-After header when sent
        self.status = status
        super().__init__(f"{model}: {message}")


class ProviderConfigError(Exception):
    """A provider that cannot be used as configured (for example a missing API key)."""


class Provider(abc.ABC):
    """A model behind one vendor SDK (or a builtin offline model)."""

    #: the provider prefix, e.g. "openai"
    name: str = ""
    #: environment variables of which one must hold a key; empty for keyless providers
    key_variables: tuple[str, ...] = ()
    #: whether calls go through the response store (builtin models are instant and exact)
    uses_store: bool = True
    #: whether the ``timeout_s`` option is understood (``--rwe-timeout`` is passed in it)
    accepts_timeout: bool = False

    def __init__(self, model: str, options: Mapping[str, Any] | None = None) -> None:
        self.model = model
        self.options: Mapping[str, Any] = dict(options or {})

    @property
    def full_name(self) -> str:
        return f"{self.name}/{self.model}"

    def effective_settings(self, settings: GenerationSettings) -> Mapping[str, Any]:
        """The settings as actually sent to this model; part of the response-store key."""
        return settings.to_dict()

    @abc.abstractmethod
    async def generate(self, request: GenerationRequest) -> GenerationResult:
        """Run one request. Raise :class:`ProviderError` when it fails for good."""

    def budget_key(self) -> str:
        """Which concurrency budget this model's calls share: its provider and server (the
        vendor providers add the base URL, without credentials)."""
        return self.name

    def key_extras(self) -> Mapping[str, Any]:
        """What else makes this model's answers differ, for the store key (e.g. its server)."""
        return {}

    def load_sdk(self) -> None:  # noqa: B027 - optional hook
        """Import the vendor SDK. Slow (seconds), so the caller runs it off the event loop,
        once, before this provider's first live call; a replay never needs it."""

    async def aclose(self) -> None:  # noqa: B027 - optional hook
        """Release clients; called once at the end of a session."""


if not TYPE_CHECKING:  # the old name, for one release
    __getattr__ = renamed_attributes(__name__, {"Role": "MessageRole"})
