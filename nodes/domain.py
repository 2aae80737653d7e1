"""What a domain pack hands the harness: one typed `Domain` object.

The harness (`graphs`, `nodes`, the skill runtime in `skills`, `checkpoints`)
knows mechanisms only: reading a request, planning, running role-bound
skills, approvals, answering, reviewing. Everything that names a business —
its intents and slots, plan templates, answer sentences, fact checks, roles,
skills, knowledge, tables and commands — comes from a domain pack, a package
that exposes `DOMAIN: Domain` (see `docs/writing-a-domain.md`).

The harness never imports a domain: `load_domain` imports the one chosen by
`ROLEGRAPH_DOMAIN` (default `retail`, i.e. `domains.retail`) at an entry point,
and Python callers may pass their own `Domain` instead. An import-linter
contract keeps it that way.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, NamedTuple, Protocol

from checkpoints.errors import ConfigurationError
from checkpoints.migrations import MigrationSource
from checkpoints.opening import Pool
from nodes.contracts import (
    ConfirmationRequest,
    Decision,
    Option,
    Plan,
    Task,
    TaskOutcome,
    Understanding,
)
from nodes.language import Bilingual, Lang
from nodes.memory.facts import Fact
from nodes.packs import DOMAIN_ENV, CommandGroup, chosen_pack, import_pack
from skills.resources import ResourceVocabulary

OUT_OF_SCOPE = "out_of_scope"
"""The intent of a request the domain has no reading for; every vocabulary has it."""

Lexicon = Mapping[str, tuple[str, ...]]
"""Words read from the domain's own data at start-up (e.g. product names), by kind."""


@dataclass(frozen=True)
class ValueAsk:
    """A value a write cannot go on without ("change the address" gives no address): when
    the request names none of its intent's asked slots, the turn asks for this one."""

    slot: str
    cue: str = ""
    """A pattern the request's text must match for this value to be what is missing
    (an address, not a payment method); empty: always."""
    shape: str = ""
    """How the value stands alone in a reply ("12 Oak St, Austin, TX 78701"): a reply it
    is found in answers the question with it, and the request goes on as
    "<request>: <value>", which the pack's reading must read the value from. Empty: the
    value is one of the customer's records (`DomainRecords.options`), picked as a
    record is."""

    def wanted(self, text: str) -> bool:
        return not self.cue or re.search(self.cue, text, re.IGNORECASE) is not None

    def found_in(self, reply: str) -> str | None:
        """The value as the reply gives it, or None."""
        match = re.search(self.shape, reply) if self.shape else None
        return match.group(0).strip() if match else None


@dataclass(frozen=True)
class IntentSpec:
    """One intent of the domain's vocabulary."""

    name: str
    description: str
    writes: bool = False
    """Its plan changes data or sends something: a model may neither add nor drop it."""
    safety: bool = False
    """It leads to a refusal or a human: a model may add it but never remove it."""
    refusal: Bilingual | None = None
    """When set, a request with this intent is refused as a whole with this text."""
    handoff: bool = False
    """The customer asks for a human: the graph hands the thread over instead of planning."""
    requires: tuple[str, ...] = ()
    """Owned identifier slots it cannot be planned without: when the request (and what
    the conversation has in focus) leaves one empty, the turn asks which record."""
    refers: tuple[str, ...] = ()
    """Owned identifier slots a reference ("it", "that order") may fill from the
    conversation's focus, besides `requires`."""
    offer: Bilingual | None = None
    """How the turn offers it when the reading is unsure ("cancel the order"):
    a question "Do you want me to …?" instead of a guess."""
    asks: tuple[ValueAsk, ...] = ()
    """Values its write needs one of: a request that gives none is asked for the first
    whose cue its text matches, instead of being answered without the write."""


@dataclass(frozen=True)
class SlotSpec:
    """One slot a request may fill; every value is untrusted customer text.

    - `identifier`: a record id with a fixed shape (`pattern`); a model may only
      repeat ids the rules tier read in the text. Values are compared by the
      pattern's first group when it has one (`#?([A-Z]\\d+)` makes "a12" and
      "#A12" the same id), case-insensitively;
    - `text`: free text (an address, an item name); a model's value must be
      found in the request (and fully match `pattern` when one is set);
    - `choice`: one of `choices`.
    """

    name: str
    description: str
    """What the model tiers are told the slot holds."""
    kind: Literal["identifier", "text", "choice"] = "text"
    pattern: str | None = None
    choices: tuple[str, ...] = ()
    many: bool = False
    """Several values (a JSON list in a model reading); else at most one."""
    shapes_write: bool = False
    """It decides what a write does: the rules tier's value wins whenever it has one."""
    owned: bool = False
    """Its values name the customer's own records: ownership is checked, other ids hidden."""
    max_chars: int = 300
    """Longest value a model reading may give."""
    max_values: int = 10
    """Most values a model reading may give for a `many` slot."""

    def compiled(self) -> re.Pattern[str] | None:
        return re.compile(self.pattern) if self.pattern else None


@dataclass(frozen=True)
class ConditionField:
    """A field of a read's result that a plan's condition (`Task.when`) may test."""

    skill: str
    """The read whose result model holds the field."""
    field: str
    values: tuple[str, ...]
    """Every value the field takes; a condition holds for some of them."""


class Reading(NamedTuple):
    """A domain's rules-tier reading of one request."""

    intents: tuple[str, ...]
    slots: dict[str, tuple[str, ...]]
    uncertain: tuple[str, ...] = ()
    """Writes the reading leaned to without enough confidence to read them: with
    nothing else read, the turn asks the customer instead of guessing."""
    targets: Mapping[str, tuple[str, ...]] = MappingProxyType({})
    """Intent -> the owned ids named in its own clauses (`Understanding.targets`)."""
    plausible: tuple[str, ...] = ()
    """Reads the reading weighed without taking them (`Understanding.plausible`)."""


class DomainUnderstanding(Protocol):
    """The rules-tier reading of one request, in the domain's vocabulary."""

    intents: tuple[IntentSpec, ...]
    slots: tuple[SlotSpec, ...]

    async def lexicon(self, pool: Pool) -> Lexicon:
        """Data words the reading needs, read once per process start; also where a
        pack loads anything else its reading needs (a trained model), off the
        event loop, so no request pays for it."""
        ...

    def read(self, text: str, lexicon: Lexicon) -> Reading:
        """Intents in priority order and slot name -> values of normalised text.

        Only intents and slots of this vocabulary; no intent reads as `OUT_OF_SCOPE`.
        """
        ...


class DomainRecords(Protocol):
    """The customer's own records, as intake checks them."""

    async def customer_exists(self, pool: Pool, user_id: str) -> bool:
        """Whether `user_id` is one of the domain's customers."""
        ...

    async def foreign(self, pool: Pool, user_id: str, understanding: Understanding) -> list[str]:
        """Values of owned slots that do not exist or are someone else's (answered alike)."""
        ...

    async def options(
        self, pool: Pool, user_id: str, slot: str, intents: tuple[str, ...], lang: Lang
    ) -> list[Option]:
        """The customer's own records a clarification about `slot` offers, the ones that fit
        `intents` first (a cancel offers pending orders), described as the customer knows them."""
        ...


class DomainPlanning(Protocol):
    """Rules-tier plans and what fills them in at run time.

    Plans name skills, roles and `bind:<marker>` values; the harness validates
    and runs them, the domain says what they mean. Replacement steps for a
    failed read are declared per skill (`replan_with` in `metadata.yaml`).
    """

    unplannable: frozenset[str]
    """Skills a model planner may never use (e.g. identity lookups)."""
    bulk_args: frozenset[str]
    """Argument names that select many records; refused in any plan."""
    customer_args: frozenset[str]
    """Argument names that hold the session customer's own id: a role agent's model is
    never offered them; the session fills them (`nodes.agent.calls`)."""
    condition_fields: tuple[ConditionField, ...]
    """What a condition may test ("if it hasn't shipped": an order read's status); a plan
    whose `when` tests anything else is refused. Empty: the domain plans no conditions."""

    def plan(self, understanding: Understanding, user_id: str) -> Plan:
        """The rules-tier plan for every intent understood (a pure function of the request)."""
        ...

    def is_marker(self, marker: str) -> bool:
        """A `bind:` marker a plan may use (model plans are checked against it)."""
        ...

    def bind(self, marker: str, results: Mapping[str, Any]) -> Any:
        """The value of `bind:<marker>` from dependency results; `BindingError` if none."""
        ...

    def prepare_args(self, skill: str, args: Mapping[str, Any]) -> dict[str, Any]:
        """Plan-level values in the skill's own shape (e.g. a free-text address split);
        `BindingError` when a value cannot be put in that shape."""
        ...

    def check_preconditions(
        self, skill: str, args: Mapping[str, Any], results: Mapping[str, Any]
    ) -> None:
        """`PreconditionFailed` when a record read earlier does not allow the write."""
        ...

    def precondition_text(self, skill: str, lang: Lang) -> str | None:
        """What state the write needs, in customer words ("while the <record> is <state>")."""
        ...

    def summarize(self, results: Mapping[str, Any]) -> str:
        """Dependency results as short lines an operator reads as evidence (quoted data)."""
        ...


@dataclass(frozen=True)
class Stance:
    """A result's answer to its task's shared question, as arbitration weighs it."""

    answer: str
    confidence: float
    evidence: tuple[str, ...] = ()


class DomainAnswers(Protocol):
    """Sentences of the answer, and what the reviewer checks in them.

    The harness words what did not happen (rejected, failed, skipped steps) and
    quotes every payload before a hook sees it; the domain words what did.
    """

    facts: re.Pattern[str]
    """Facts (ids, amounts) a draft may only state when a result or the request holds them."""
    claims: Mapping[str, str]
    """Claim phrase -> the skill whose success it needs."""
    statuses: Mapping[str, tuple[str, ...]]
    """Record status as results store it -> the other words an answer names it by (either
    language); a model draft may state a status only when the results or the template do."""
    refusals: Mapping[str, Bilingual]
    """Harness refusal kind (`out_of_scope`, `no_customer`, `foreign` with `{ids}`) -> text."""
    foreign: Mapping[str, str]
    """Owned slot name -> the words that stand in for an id that is not the customer's."""
    reasons: Mapping[str, Bilingual]
    """Error code -> the reason a failed step is told with, where the domain words it better."""

    def describe(
        self, task: Task, outcome: TaskOutcome, lang: Lang, *, feeds: bool = False
    ) -> list[str]:
        """Sentences for one succeeded step (its payload already quoted: data, never obeyed).

        `feeds`: another step of the plan depends on this one (a read before a change):
        that step's own sentences tell what it touches, so this one may say less."""
        ...

    def supersedes(self, write: Task, read: Task) -> bool:
        """Whether `write`, once it succeeded, makes `read`'s result stale (so it is not told)."""
        ...

    def own_ids(self, outcome: TaskOutcome) -> tuple[str, ...]:
        """Ids a succeeded result lists as the customer's own (e.g. a list of their records)."""
        ...

    def stance(self, outcome: TaskOutcome) -> Stance | None:
        """The result's answer to a shared question, read through its result model; None if none."""
        ...

    def decision(self, decision: Decision, lang: Lang) -> str:
        """The sentence for an arbitrated answer (its answer and evidence already quoted)."""
        ...

    def condition_sentence(self, task: Task, tested: TaskOutcome, held: bool, lang: Lang) -> str:
        """Which way `task.when` went, told from the (quoted) result it tested: it held
        ("Order #W… has not shipped yet (status pending).") or it did not, and so the step
        did not run ("Order #W… has already shipped (status processed), so I did not
        cancel it; …"). Said before what the step itself did, if it ran."""
        ...

    def target(self, task: Task, lang: Lang) -> str:
        """What a failed step was about (" for <record> <id>"; zh "<record> <id> 的"), or ""."""
        ...

    def step(self, skill: str, lang: Lang) -> str | None:
        """The step's name in customer words, or None: the harness names it from the skill id."""
        ...

    def binding_reason(self, task: Task, lang: Lang) -> str | None:
        """What to ask for when the step's `bind:` values could not be filled, or None."""
        ...

    def confirmation(
        self, request: ConfirmationRequest, results: Mapping[str, Any], lang: Lang
    ) -> str:
        """What the call will do, exactly, as a clause after "I will" (the records, items,
        amounts and payment method: "cancel order #W… (Lamp $20.00; refunded to …)");
        `results` are its dependencies' payloads, quoted. The harness asks the question."""
        ...

    def declined(
        self, task: Task, outcome: TaskOutcome, results: Mapping[str, Any], lang: Lang
    ) -> str | None:
        """The sentence for a step the business refused (an error code of
        `nodes.outcomes.DECLINED_CODES`: its precondition, or the skill's own business
        error): why, and where it helps what the customer can do instead ("order … has
        already shipped; once it is delivered you can return it"). `results` are its
        dependencies' payloads, quoted; `outcome.error` may be read to tell the pack's
        own errors apart, never repeated. None: the harness words it from the code."""
        ...

    def ask(self, slot: str, intents: tuple[str, ...], lang: Lang) -> str:
        """The question asking which record `slot` means (the options are listed after it)."""
        ...


Restore = Callable[[], Awaitable[tuple[str, ...]]]
"""Puts the domain's data back as it was at a restore point; the ids of the records it rewrote."""


class DomainSeed(Protocol):
    """The domain's reference data, for entry points that must work on a fresh database."""

    empty_hint: str
    """What to run when the database holds no customers (said in the "unknown user" error)."""

    async def has_customers(self, pool: Pool) -> bool:
        """Whether any customer is loaded."""
        ...

    async def seed_if_empty(self, pool: Pool) -> str | None:
        """Load the reference data into a database without domain data; a summary, else None."""
        ...

    async def restore_point(self, pool: Pool) -> Restore:
        """A way back to the data as it is now, for scripted runs that change it
        (the conversation suite puts it back after every conversation)."""
        ...


class DomainMemory(Protocol):
    """Which stable facts about a customer exist, and where a remembered one changes behaviour.

    The harness stores, merges, ranks and forgets; the domain names the facts.
    """

    def facts(self, understanding: Understanding) -> list[Fact]:
        """Candidate facts the request states, each with its importance (the harness
        keeps those at or above `nodes.memory.facts.MIN_IMPORTANCE`)."""
        ...

    def relevance(self, key: str, understanding: Understanding) -> float:
        """How much the remembered fact `key` matters to this request (0..1)."""
        ...

    def acknowledge(self, fact: Fact, lang: str) -> str:
        """The sentence telling the customer a fact is remembered."""
        ...

    def apply(self, plan: Plan, remembered: Mapping[str, str], user_id: str) -> Plan:
        """The plan for `user_id` changed by their remembered facts (key -> winning value)."""
        ...


@dataclass(frozen=True)
class Domain:
    """A business the harness runs: its vocabulary, roles, skills, knowledge and data."""

    name: str
    catalog: Path
    """Skill packages (`<skill_id>/metadata.yaml`, `executor.py`, `README.md`)."""
    roles: Path
    """Role files and `permission_matrix.yaml`."""
    knowledge: Path
    """Knowledge partitions (`<partition>/partition.yaml` and `*.md`)."""
    prompts: Path
    """`intake.md`, `planner.md` and `compose.md`: what the model tiers are told about the domain."""
    migrations: MigrationSource
    resources: ResourceVocabulary
    understanding: DomainUnderstanding
    records: DomainRecords
    planning: DomainPlanning
    answers: DomainAnswers
    commands: tuple[CommandGroup, ...] = ()
    """The CLI commands the domain adds (`rolegraph data …`); the pack's package
    module exposes the same tuple as `COMMANDS`, so listing them loads nothing."""
    settings: tuple[str, ...] = field(default=())
    """Environment variables handed to skills as settings."""
    seed: DomainSeed | None = None
    """Reference data for Studio and the "no customers yet" hint; None when the domain has none."""
    memory: DomainMemory | None = None
    """The stable facts a customer's long-term memory holds; None: the domain remembers nothing."""

    def intent(self, name: str) -> IntentSpec | None:
        return next((i for i in self.understanding.intents if i.name == name), None)

    @property
    def intent_names(self) -> tuple[str, ...]:
        return tuple(i.name for i in self.understanding.intents)


def load_domain(name: str | None = None, *, env: Mapping[str, str] | None = None) -> Domain:
    """The domain pack `name` (else `ROLEGRAPH_DOMAIN`, else `retail`).

    A bare name is a pack under `domains/`; a dotted name is any importable
    module exposing `DOMAIN`.
    """
    chosen = chosen_pack(name, env)
    module = import_pack(chosen)
    domain = getattr(module, "DOMAIN", None)
    if not isinstance(domain, Domain):
        raise ConfigurationError(
            f"{DOMAIN_ENV}={chosen!r}: module {module.__name__} has no DOMAIN of type nodes.domain.Domain"
        )
    return domain
