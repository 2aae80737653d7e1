"""Compose on a model tier: a model words the answer, the reviewer holds it to the template.

The rules tier's draft (the template) comes first and states the facts to
tell; the model is shown it, the turn's results (quoted and masked, fenced
as untrusted data) and the customer's masked request, and writes the answer
in the customer's language. `nodes.review_draft.check_model_draft` checks
each reply; a rejected one is sent back once with the reviewer's feedback,
and when the revision is rejected too the template stands. So a weak model
never makes the answer worse than the template, and never causes an
escalation: the reviewer sees either an approved model draft or the template.

Questions (clarifications, confirmations), refusals and a colleague's reply
are always the rules tier's words: they are promises the conversation keeps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from nodes.contracts import ReviewVerdict
from nodes.domain import Domain, DomainAnswers
from nodes.errors import ModelOutputInvalid
from nodes.language import Lang, turn_lang
from nodes.models.call import call_site, descend
from nodes.models.prompts import Prompts, domain_prompt
from nodes.models.tiers import ModelSize
from nodes.review_draft import check_model_draft
from nodes.state import SupportState
from skills.pii import mask_pii

if TYPE_CHECKING:
    from nodes.context import SupportContext

NODE = "compose"
COMPOSE_TIER: ModelSize = "small"
"""The tier compose declares: rewording checked facts needs no large model."""
LANGUAGE: dict[Lang, str] = {"en": "English", "zh": "Simplified Chinese (简体中文)"}
_MARKER = re.compile(r"</?\s*(?:customer_message|results|draft)\s*>", re.IGNORECASE)


@dataclass(frozen=True)
class ModelDraft:
    """An approved model-written answer and the tier that wrote it."""

    text: str
    tier: ModelSize
    revised: bool
    """True when it is the revision the reviewer's feedback asked for."""


@dataclass(frozen=True)
class _Rejected:
    text: str
    tier: ModelSize
    verdict: ReviewVerdict


@dataclass
class _Reviewer:
    """Checks each reply against the template; keeps the first rejected one for its revision."""

    template: str
    results: str
    state: SupportState
    answers: DomainAnswers
    rejected: _Rejected | None = None

    def first(self, reply: str, tier: ModelSize) -> ModelDraft:
        """A `descend` check: the reply as an approved draft, or `ModelOutputInvalid`."""
        return self._checked(reply.strip(), tier, revised=False)

    def revised(self, reply: str, tier: ModelSize) -> ModelDraft:
        """The same check of the revision."""
        return self._checked(reply.strip(), tier, revised=True)

    def _checked(self, text: str, tier: ModelSize, revised: bool) -> ModelDraft:
        verdict = check_model_draft(
            text,
            template=self.template,
            results=self.results,
            state=self.state,
            answers=self.answers,
        )
        if not verdict.approved:
            self.rejected = self.rejected or _Rejected(text, tier, verdict)
            raise ModelOutputInvalid(NODE, "; ".join(verdict.feedback[:3]))
        return ModelDraft(text=text, tier=tier, revised=revised)


def model_may_word(state: SupportState) -> bool:
    """Whether this turn's answer may be worded by a model (see the module docstring)."""
    held = ("refusal", "asking", "confirmations", "human_reply", "review")
    return bool(state.get("outcomes")) and not any(state.get(k) for k in held)


async def model_draft(
    ctx: SupportContext, state: SupportState, template: str, results: str
) -> ModelDraft | None:
    """The first model draft the reviewer approves (after at most one revision), else None.

    `template` is the rules tier's draft; `results` the turn's results as the model reads them.
    """
    tiers = ctx.models
    if tiers is None or not tiers.available or not model_may_word(state):
        return None
    reviewer = _Reviewer(template, results, state, ctx.domain.answers)
    messages = compose_messages(tiers.prompts, ctx.domain, state, template, results)
    site = call_site(NODE, dict(state))
    found = await descend(tiers, ctx.pool, site, COMPOSE_TIER, messages, reviewer.first)
    sent_back = reviewer.rejected
    if found is not None or sent_back is None:
        return found
    revision = [*messages, *revision_turn(tiers.prompts, sent_back.text, sent_back.verdict)]
    return await descend(tiers, ctx.pool, site, sent_back.tier, revision, reviewer.revised)


def revision_turn(prompts: Prompts, draft: str, verdict: ReviewVerdict) -> list[BaseMessage]:
    """The rejected draft as the model's turn, then the reviewer's feedback asking for another."""
    feedback = "\n".join(f"- {f}" for f in verdict.feedback)
    return [
        AIMessage(content=draft),
        HumanMessage(content=prompts.render("compose_revision", feedback=feedback)),
    ]


def compose_messages(
    prompts: Prompts, domain: Domain, state: SupportState, template: str, results: str
) -> list[BaseMessage]:
    """System instructions (with the desk's own words), then request, results and template as data."""
    system = prompts.render(
        "compose",
        domain=domain_prompt(domain.prompts, "compose"),
        language=LANGUAGE[turn_lang(state)],
    )
    request = prompts.render(
        "compose_request",
        text=_fenced(_request_text(state)),
        results=_fenced(results),
        draft=_fenced(template),
    )
    return [SystemMessage(content=system), HumanMessage(content=request)]


def _request_text(state: SupportState) -> str:
    # Intake's masked text; a turn refused before intake read it has only its raw text.
    understanding = state.get("understanding")
    masked = understanding["masked_text"] if understanding else None
    return masked or mask_pii(str(state.get("text") or ""))


def _fenced(text: str) -> str:
    # Data cannot close its fence early by carrying the marker itself.
    return _MARKER.sub(" ", text)
