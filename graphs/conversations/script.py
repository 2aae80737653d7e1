"""A conversation suite file: scripted conversations, and what each turn must show.

The file format (YAML) is the models below, documented for suite writers at
the top of a domain pack's suite (`domains/<pack>/conversations/suite.yaml`).
A file that cannot be read or does not match is one `DataFormatError` line
naming the place.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationError,
)

from checkpoints.errors import DataFormatError
from nodes.language import Lang

TurnStatus = Literal["completed", "interrupted", "needs_input", "refused", "failed", "error"]
"""A turn's status as the Python API reports it; `error`: the API refused the turn itself."""
Id = Annotated[str, Field(min_length=1, max_length=60, pattern=r"^[A-Za-z0-9_.-]+$")]


def _listed(value: object) -> object:
    """One word stands for a list of one."""
    return [value] if isinstance(value, str) else value


Words = Annotated[list[Annotated[str, Field(min_length=1)]], BeforeValidator(_listed)]


class _Strict(BaseModel):
    # A misspelt expectation would check nothing: unknown keys are errors.
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class _Described(BaseModel):
    # Suites and conversations may carry notes of their own (tags, a class, a description).
    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)


class QuestionExpect(_Strict):
    """The question a turn must end with."""

    kind: Literal["clarify", "confirm"]
    contains: Words = []
    """Words its text must hold (case-insensitive)."""
    options: Words | None = None
    """Exactly these option values, in any order (ids compared without a leading "#")."""
    offers: Words = []
    """Option values it must offer (others may be there too)."""
    absent: Words = []
    """Words neither its text nor any option may hold (e.g. another customer's ids)."""


class InterruptExpect(_Strict):
    """A pending request the turn must stop on."""

    kind: Literal["approval", "escalation"] = "approval"
    skill: str | None = None
    args: dict[str, str | int | float | bool | None] = {}
    """Arguments the request must carry (others may be there too)."""


class Expect(_Strict):
    """What one turn must show: each check only when given; a turn with no
    `status` passes whatever its status but `error`."""

    status: TurnStatus | list[TurnStatus] | None = None
    """The status, or the statuses any of which will do."""
    contains: Words = []
    """Every one of these in the answer (case-insensitive)."""
    any_of: Words = Field(default=[], alias="any")
    """At least one of these in the answer (e.g. the same fact in either language)."""
    absent: Words = []
    """None of these anywhere in the answer (case-insensitive)."""
    question: QuestionExpect | None = None
    """The question the turn asks; an explicit `null`: it must ask none."""
    interrupt: InterruptExpect | None = None
    """A request the turn stops on; an explicit `null`: nothing may be pending."""
    lang: Lang | None = None
    """The language the answer must be written in."""
    intents: list[str] | None = None
    """Exactly these intents read (any order)."""


class CustomerTurn(_Strict):
    """The customer says something."""

    say: Annotated[str, Field(min_length=1)]
    as_user: str | None = Field(default=None, alias="as")
    """Said by this other customer instead of the conversation's (on the same thread)."""
    thread: int = Field(default=1, ge=1, le=9)
    """Which of the conversation's threads (2: a later conversation of the same customer)."""
    expect: Expect = Expect()


class OperatorTurn(_Strict):
    """An operator answers the thread's pending requests."""

    operator: Literal["approve", "reject", "edit", "reply"]
    args: dict[str, Any] | None = None
    message: str | None = None
    request: str | None = None
    """Only the pending request of this skill (default: every pending request)."""
    thread: int = Field(default=1, ge=1, le=9)
    expect: Expect = Expect()


def _turn_tag(raw: Any) -> str | None:
    if isinstance(raw, dict):
        return "operator" if "operator" in raw else "say"
    return "operator" if isinstance(raw, OperatorTurn) else "say"


Turn = Annotated[
    Annotated[CustomerTurn, Tag("say")] | Annotated[OperatorTurn, Tag("operator")],
    Discriminator(_turn_tag),
]


class Conversation(_Described):
    """One scripted conversation of one customer."""

    id: Id
    user: Annotated[str, Field(min_length=1)]
    about: str = ""
    turns: Annotated[list[Turn], Field(min_length=1, max_length=30)]
    changes: Words | None = None
    """Exactly the records the whole conversation changed (ids as the domain names
    them, e.g. "#W2611340"); None: not checked. `[]`: nothing may change."""

    def users(self) -> set[str]:
        """Every customer the conversation acts as."""
        others = {t.as_user for t in self.turns if isinstance(t, CustomerTurn) and t.as_user}
        return {self.user} | others


class Suite(_Described):
    """A file of conversations."""

    conversations: Annotated[list[Conversation], Field(min_length=1)]

    def users(self) -> set[str]:
        """Every customer the suite acts as."""
        return {u for c in self.conversations for u in c.users()}


def load_suite(path: Path) -> Suite:
    """The suite in `path`; a `DataFormatError` saying where it is wrong."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DataFormatError(
            f"{path}: cannot read it ({exc.strerror}); pass a suite file"
        ) from None
    except UnicodeDecodeError:
        raise DataFormatError(f"{path}: not UTF-8 text; pass a YAML suite file") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None)
        why = f" ({problem})" if problem else ""
        raise DataFormatError(f"{path}: not YAML{where}{why}; fix the syntax there") from None
    try:
        suite = Suite.model_validate(raw)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"]) or "(file)"
        raise DataFormatError(
            f"{path}: {where}: {error['msg']}; see the format at the top of a pack's suite.yaml"
        ) from None
    _check_unique(path, suite)
    return suite


def _check_unique(path: Path, suite: Suite) -> None:
    seen: set[str] = set()
    for conversation in suite.conversations:
        if conversation.id in seen:
            raise DataFormatError(f"{path}: conversation id {conversation.id!r} is used twice")
        seen.add(conversation.id)
