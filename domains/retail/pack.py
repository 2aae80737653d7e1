"""The retail `Domain`: every retail-specific part the harness is handed."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from checkpoints.migrations import MigrationSource
from checkpoints.opening import Pool
from domains.retail import COMMANDS, conditions
from domains.retail.answers import RetailAnswers
from domains.retail.conversation import RetailConversation
from domains.retail.memory import RetailMemory
from domains.retail.planning import binding, preconditions, templates
from domains.retail.records import RetailRecords
from domains.retail.understanding import RetailUnderstanding
from nodes.contracts import ConfirmationRequest, Option, Plan, Understanding
from nodes.domain import Domain, Restore
from nodes.language import Bilingual, Lang
from skills.resources import ResourceVocabulary

HERE = Path(__file__).resolve().parent
_CONVERSATION = RetailConversation()

REFUSE_SCOPE = Bilingual(
    "I can help with your orders, deliveries, returns, refunds, account and our policies. "
    "That request is outside what I can do.",
    "我可以帮您处理订单、配送、退货、退款、账户以及政策方面的问题，这个请求超出了我能办理的范围。",
)


class _Understanding(RetailUnderstanding):
    """Retail intents, slots and their rules-tier reading (`domains.retail.understanding`)."""


class _Records(RetailRecords):
    """Retail accounts and orders (`domains.retail.records`); what a clarification
    offers (`domains.retail.conversation`)."""

    async def options(
        self, pool: Pool, user_id: str, slot: str, intents: tuple[str, ...], lang: Lang
    ) -> list[Option]:
        return await _CONVERSATION.options(pool, user_id, slot, intents, lang)


class _Planning:
    unplannable = frozenset({"find_user_id_by_email_v1", "find_user_id_by_name_zip_v1"})
    bulk_args = frozenset({"user_ids", "order_ids"})
    customer_args = frozenset({"user_id"})
    condition_fields = conditions.FIELDS

    def plan(self, understanding: Understanding, user_id: str) -> Plan:
        return templates.rules_plan(understanding, user_id)

    def is_marker(self, marker: str) -> bool:
        return binding.is_marker(marker)

    def bind(self, marker: str, results: Mapping[str, Any]) -> Any:
        return binding.resolve(marker, results)

    def prepare_args(self, skill: str, args: Mapping[str, Any]) -> dict[str, Any]:
        return binding.prepare_args(skill, args)

    def check_preconditions(
        self, skill: str, args: Mapping[str, Any], results: Mapping[str, Any]
    ) -> None:
        preconditions.check_preconditions(skill, args, results)

    def precondition_text(self, skill: str, lang: Lang) -> str | None:
        return preconditions.precondition_text(skill, lang)

    def summarize(self, results: Mapping[str, Any]) -> str:
        return binding.summarize_results(results)


class _Answers(RetailAnswers):
    refusals: Mapping[str, Bilingual] = {
        "out_of_scope": REFUSE_SCOPE,
        "no_customer": Bilingual(
            "I can't find your customer account, so I can't look anything up.",
            "我找不到您的客户账户，所以没办法为您查询。",
        ),
        "foreign": Bilingual(
            "I can't find {ids} among your orders, so I can't act on it.",
            "我在您的订单中找不到 {ids}，所以无法为您办理。",
        ),
    }

    def confirmation(
        self, request: ConfirmationRequest, results: Mapping[str, Any], lang: Lang
    ) -> str:
        return _CONVERSATION.confirmation(request, results, lang)

    def ask(self, slot: str, intents: tuple[str, ...], lang: Lang) -> str:
        return _CONVERSATION.ask(slot, intents, lang)


class _Seed:
    empty_hint = (
        "load the reference data with `rolegraph data generate` "
        "(or a tau2 file with `rolegraph data load PATH`)"
    )

    async def has_customers(self, pool: Pool) -> bool:
        from domains.retail.storage.counts import has_customers

        async with pool.connection() as conn:
            return await has_customers(conn)

    async def seed_if_empty(self, pool: Pool) -> str | None:
        from domains.retail.storage.seed import ensure_reference_data

        async with pool.connection() as conn:
            summary = await ensure_reference_data(conn)
        return None if summary is None else str(summary)

    async def restore_point(self, pool: Pool) -> Restore:
        from domains.retail.tools.reset import restore_point

        return await restore_point(pool)


DOMAIN = Domain(
    name="retail",
    catalog=HERE / "catalog",
    roles=HERE / "roles",
    knowledge=HERE / "knowledge",
    prompts=HERE / "prompts",
    migrations=MigrationSource("retail", HERE / "sql"),
    resources=ResourceVocabulary(
        data=frozenset(
            {"db://users", "db://orders", "db://products", "db://shipments", "db://notifications"}
        ),
        tools=frozenset({"tool://send_notification", "tool://human_handoff"}),
        knowledge=frozenset(
            {"faq", "return_policy", "shipping_policy", "error_codes", "shipping_routes"}
        ),
        context=frozenset({"order_id"}),
    ),
    understanding=_Understanding(),
    records=_Records(),
    planning=_Planning(),
    answers=_Answers(),
    commands=COMMANDS,
    settings=("SMTP_HOST", "SMTP_PORT", "SMTP_FROM", "NOTIFY_MAX_ATTEMPTS"),
    seed=_Seed(),
    memory=RetailMemory(),
)
