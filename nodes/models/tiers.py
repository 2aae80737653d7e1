"""The configured chat models, one per tier, built once at an entry point.

With no model configured the object is empty and every node runs its rules
tier; nothing else in the system has to know whether a model exists.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from checkpoints.settings import env_number
from nodes.errors import ModelConfigError
from nodes.models.breaker import ModelBreakers
from nodes.models.budget import Budgets
from nodes.models.deadline import RequestClock
from nodes.models.node_tiers import NodeTier, NodeTiers
from nodes.models.prompts import Prompts, load_prompts

if TYPE_CHECKING:
    # Only annotations: a process with no model configured never imports the chat model classes.
    from langchain_core.language_models import BaseChatModel

ModelSize = Literal["small", "large"]
"""A model tier's size; with the rules tier it makes a `nodes.contracts.Tier`."""
LADDER: tuple[ModelSize, ...] = ("large", "small")
DEFAULT_TIMEOUT_S = 30.0
DEFAULT_REQUEST_TIMEOUT_S = 60.0
_MIN_SECONDS = 0.001
NO_MODEL_NOTICE = (
    "no model configured (ROLEGRAPH_MODEL_SMALL/LARGE unset): every node runs its rules tier"
)


@dataclass(frozen=True)
class ModelTiers:
    """Chat models per tier plus the checked prompts they are driven with.

    Any `BaseChatModel` works per tier (tests inject a scripted fake);
    `from_env` builds `ChatOpenAI` clients for an OpenAI-compatible endpoint.
    The breakers and the request clock are this process's state, shared by
    every request that uses these tiers.
    """

    small: BaseChatModel | None = None
    large: BaseChatModel | None = None
    timeout_s: float = DEFAULT_TIMEOUT_S
    """Per model call, at most (ROLEGRAPH_MODEL_TIMEOUT)."""
    request_timeout_s: float = DEFAULT_REQUEST_TIMEOUT_S
    """All model calls of one request together, at most (ROLEGRAPH_REQUEST_TIMEOUT)."""
    prompts: Prompts = field(default_factory=load_prompts)
    breakers: ModelBreakers = field(default_factory=ModelBreakers)
    requests: RequestClock = field(default_factory=RequestClock)
    nodes: NodeTiers = field(default_factory=NodeTiers)
    """Where each harness node's ladder starts (`ROLEGRAPH_TIER_<NODE>`)."""
    budgets: Budgets = field(default_factory=Budgets)
    """Token budgets and the per-call output cap (`ROLEGRAPH_BUDGET_*`, `ROLEGRAPH_MAX_TOKENS`)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> ModelTiers:
        """Read OPENAI_API_KEY, OPENAI_BASE_URL, ROLEGRAPH_MODEL_SMALL/LARGE, the
        timeouts ROLEGRAPH_MODEL_TIMEOUT / ROLEGRAPH_REQUEST_TIMEOUT, the node
        tiers ROLEGRAPH_TIER_<NODE> and the budgets ROLEGRAPH_BUDGET_* / ROLEGRAPH_MAX_TOKENS.

        Prompts are loaded and checked here, so a broken prompt file fails at
        start-up rather than on the first request.
        """
        prompts = load_prompts()
        names = {t: env.get(f"ROLEGRAPH_MODEL_{t.upper()}", "").strip() for t in LADDER}
        timeout_s = _seconds(env, "ROLEGRAPH_MODEL_TIMEOUT", DEFAULT_TIMEOUT_S)
        request_s = _seconds(env, "ROLEGRAPH_REQUEST_TIMEOUT", DEFAULT_REQUEST_TIMEOUT_S)
        settings = cls(
            timeout_s=timeout_s,
            request_timeout_s=request_s,
            prompts=prompts,
            nodes=NodeTiers.from_env(env),
            budgets=Budgets.from_env(env),
        )
        if not any(names.values()):
            return settings
        base_url = env.get("OPENAI_BASE_URL", "").strip() or None
        api_key = env.get("OPENAI_API_KEY", "").strip()
        if not api_key and base_url is None:
            raise ModelConfigError(
                "ROLEGRAPH_MODEL_SMALL/LARGE is set but OPENAI_API_KEY is not; "
                "set OPENAI_API_KEY (or OPENAI_BASE_URL for a local endpoint) or unset the models"
            )
        # Local OpenAI-compatible servers ignore the key, but the client needs one.
        key = api_key or "unused"
        built = {
            tier: _chat_openai(name, key, base_url, timeout_s) if name else None
            for tier, name in names.items()
        }
        return replace(settings, small=built["small"], large=built["large"])

    @property
    def available(self) -> bool:
        """True when at least one tier has a model."""
        return self.small is not None or self.large is not None

    def ladder(self, start: ModelSize = "large") -> tuple[tuple[ModelSize, BaseChatModel], ...]:
        """The configured tiers to try, from `start` downwards (large -> small)."""
        tiers = LADDER[LADDER.index(start) :]
        pairs = ((t, self.model(t)) for t in tiers)
        return tuple((t, m) for t, m in pairs if m is not None)

    def ladder_from(self, start: NodeTier) -> tuple[tuple[ModelSize, BaseChatModel], ...]:
        """`ladder(start)`, or no tier at all when the node starts at `rules`."""
        if start == "rules":
            return ()
        return self.ladder("small" if start == "small" else "large")

    def model(self, tier: ModelSize) -> BaseChatModel | None:
        return self.large if tier == "large" else self.small

    def describe(self) -> str:
        """A one-line notice for the CLI about which tiers are live."""
        if not self.available:
            return NO_MODEL_NOTICE
        parts = [f"{t}={model_name(m)}" for t, m in self.ladder()]
        missing = [t for t in LADDER if self.model(t) is None]
        note = f" ({'/'.join(missing)} unset: falls through to the next tier)" if missing else ""
        limits = f"; {self.timeout_s:g}s per call, {self.request_timeout_s:g}s per request"
        nodes, budgets = self.nodes.describe(), self.budgets.describe()
        limits += f"; node tiers {nodes}" if nodes else ""
        limits += f"; token budgets {budgets}" if budgets else ""
        return f"models: {', '.join(parts)}; ladder large -> small -> rules{note}{limits}"


def model_name(model: BaseChatModel) -> str:
    """The name recorded in the token ledger for a chat model."""
    for attr in ("model_name", "model"):
        value = getattr(model, attr, None)
        if isinstance(value, str) and value:
            return value
    return type(model).__name__


def _chat_openai(name: str, key: str, base_url: str | None, timeout_s: float) -> BaseChatModel:
    # Imported here so a rules-only deployment never loads the OpenAI client.
    from langchain_openai import ChatOpenAI
    from pydantic import SecretStr

    # max_retries=0: the ladder decides what happens on failure, and retries a
    # 429 itself within the request's deadline (nodes.models.invoke).
    return ChatOpenAI(
        model=name,
        api_key=SecretStr(key),
        base_url=base_url,
        timeout=timeout_s,
        max_retries=0,
        temperature=0,
    )


def _seconds(env: Mapping[str, str], name: str, default: float) -> float:
    return env_number(env, name, default, float, _MIN_SECONDS, ModelConfigError)
