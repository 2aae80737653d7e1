"""The retail `Domain`: every retail-specific part the harness is handed."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from checkpoints.migrations import MigrationSource
from checkpoints.opening import Pool
from domains.retail.commands import data_cmd, tau2_cmd
from nodes.contracts import Decision, Plan, Task, TaskOutcome, Understanding
from nodes.domain import Domain, IntentSpec, Lexicon, SlotSpec
from skills.resources import ResourceVocabulary

HERE = Path(__file__).resolve().parent

# TODO(issue 8): the bodies below still delegate to harness modules; they move here.
from nodes.contracts import INTENTS  # noqa: E402
from nodes.intake.node import REFUSE_BULK, REFUSE_SCOPE  # noqa: E402
from nodes.models.grounding import SAFETY_INTENTS, WRITE_INTENTS  # noqa: E402

INTENTS_SPEC = tuple(
    IntentSpec(
        name=i,
        description=i.replace("_", " "),
        writes=i in WRITE_INTENTS,
        safety=i in SAFETY_INTENTS,
        refusal=REFUSE_BULK if i == "bulk_modify" else None,
        handoff=i == "human_handoff",
    )
    for i in INTENTS
)
SLOTS = (
    SlotSpec("order_ids", "order ids (#W and 7 digits)", kind="identifier",
             pattern=r"#?[Ww]\d{7}", many=True, owned=True),
    SlotSpec("emails", "e-mail addresses", kind="identifier",
             pattern=r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}", many=True),
    SlotSpec("item_names", "product names", many=True),
    SlotSpec("address", "a postal address", shapes_write=True),
    SlotSpec("reason", "a cancellation reason", kind="choice",
             choices=("no longer needed", "ordered by mistake"), shapes_write=True),
    SlotSpec("payment_method", "a payment method id or kind", shapes_write=True),
)  # fmt: skip


class _Understanding:
    intents: tuple[IntentSpec, ...] = INTENTS_SPEC
    slots: tuple[SlotSpec, ...] = SLOTS

    async def lexicon(self, pool: Pool) -> Lexicon:
        from domains.retail.storage.reads import product_names

        return {"products": await product_names(pool)}

    def read(
        self, text: str, lexicon: Lexicon
    ) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
        from nodes.intake.rules import understand

        u = understand(text, lexicon.get("products", ()))
        return u.intents, dict(u.slots)


class _Records:
    async def customer_exists(self, pool: Pool, user_id: str) -> bool:
        from nodes.intake.ownership import user_exists

        return await user_exists(pool, user_id)

    async def foreign(self, pool: Pool, user_id: str, understanding: Understanding) -> list[str]:
        from nodes.intake.ownership import foreign_orders

        return await foreign_orders(pool, user_id, understanding.slots.order_ids)


class _Planning:
    unplannable = frozenset({"find_user_id_by_email_v1", "find_user_id_by_name_zip_v1"})
    bulk_args = frozenset({"user_ids", "order_ids"})

    def plan(self, understanding: Understanding, user_id: str) -> Plan:
        from nodes.planner.templates import rules_plan

        return rules_plan(understanding, user_id)

    def is_marker(self, marker: str) -> bool:
        return marker in {"order_items", "order_payment", "summary"} or bool(
            re.fullmatch(r"user_payment:[a-z_]{1,30}", marker)
        )

    def bind(self, marker: str, results: Mapping[str, Any]) -> Any:
        raise NotImplementedError

    def prepare_args(self, skill: str, args: Mapping[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def check_preconditions(
        self, skill: str, args: Mapping[str, Any], results: Mapping[str, Any]
    ) -> None:
        raise NotImplementedError

    def precondition_text(self, skill: str) -> str | None:
        raise NotImplementedError


class _Answers:
    facts = re.compile(r"#W\d{7}|\$\d+(?:\.\d{2})?|\b\d{10,12}\b")
    claims: Mapping[str, str] = {}
    refusals: Mapping[str, str] = {"out_of_scope": REFUSE_SCOPE}

    def describe(self, task: Task, outcome: TaskOutcome) -> list[str]:
        raise NotImplementedError

    def decision(self, decision: Decision) -> str:
        return f"Most likely reason for the delay: {decision.answer}."

    def target(self, task: Task) -> str:
        order_id = task.args.get("order_id")
        return f" for order {order_id}" if isinstance(order_id, str) else ""


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
    commands=(data_cmd, tau2_cmd),
    settings=("SMTP_HOST", "SMTP_PORT", "SMTP_FROM", "NOTIFY_MAX_ATTEMPTS"),
    seed=_Seed(),
)
