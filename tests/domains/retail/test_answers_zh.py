"""Retail answers in Chinese: every sentence kind, from real results, keeps its ids and passes review."""

from __future__ import annotations

from typing import Any

import pytest
import pytest_asyncio

from checkpoints.opening import Database
from domains.retail.pack import DOMAIN
from domains.retail.planning.preconditions import precondition_text
from domains.retail.tools.replay import CATALOG
from nodes.compose import compose_sentences
from nodes.contracts import Decision, Plan, Proposal, Task, TaskOutcome
from nodes.failure_text import failure_sentence
from nodes.language import CJK, Lang
from nodes.quoting import id_shapes, own_ids, quote_outcome
from nodes.review import check
from skills.context import RuntimeContext
from skills.knowledge import sync_knowledge
from skills.registry import SkillRegistry, load_catalog
from tests.domains.retail.test_results import CALLS

FAQ = ("faq_cache_lookup_v1", {"question": "Can I cancel my order?"}, None)
"""A question the FAQ answers (the one in `CALLS` has no answer)."""
# The Chinese words each succeeded step is told with (skills telling nothing are absent).
WORDS_ZH = {
    "get_user_details_v1": "您的订单：",
    "get_order_details_v1": "目前的状态是：",
    "list_all_product_types_v1": "我们销售的商品类别有：",
    "track_shipment_v1": "包裹 ",
    "calculate_eta_v1": " 送达",
    "search_knowledge_v1": "帮助中心的说明：",
    "faq_cache_lookup_v1": "帮助中心的说明：",
    "transfer_to_human_agents_v1": "转交给人工客服同事",
    "send_notification_v1": "的通知已加入发送队列。",
    "modify_pending_order_items_v1": "的商品已更改。",
    "modify_pending_order_address_v1": "的收货地址已更新。",
    "modify_pending_order_payment_v1": "的支付方式已更改。",
    "cancel_pending_order_v1": "已为您取消，款项将原路退回",
    "exchange_delivered_order_items_v1": "的换货申请已提交。",
    "return_delivered_order_items_v1": "的退货申请已提交",
    "modify_user_address_v1": "您账户的默认地址已更新。",
}


@pytest.fixture(scope="module")
def registry() -> SkillRegistry:
    return load_catalog(CATALOG)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def outcomes(registry: SkillRegistry, tau2_db: Database) -> list[tuple[Task, TaskOutcome]]:
    """Every retail skill called once for real (writes in the order `CALLS` gives), its
    payload quoted as compose quotes it before the pack reads it."""
    async with tau2_db.pool.connection() as conn:
        await sync_knowledge(conn, DOMAIN.knowledge)
    done = []
    for n, (skill, args, user) in enumerate([*CALLS, FAQ]):
        executor = registry.get(skill).executor
        ctx = RuntimeContext(pool=tau2_db.pool, user_id=user)
        payload = await executor.execute(executor.validate_input(args), ctx)
        task = Task(id=f"t{n}", role="order_query", skill=skill, args=args)
        outcome = TaskOutcome(
            task_id=task.id, skill=skill, role=task.role, status="succeeded", payload=payload
        )
        done.append((task, outcome))
    plan = Plan(tasks=tuple(t for t, _ in done))
    own = own_ids(plan, {t.id: o for t, o in done}, DOMAIN)
    return [(t, quote_outcome(o, own, id_shapes(DOMAIN))) for t, o in done]


def _state(lang: Lang, pairs: list[tuple[Task, TaskOutcome]], text: str) -> Any:
    return {
        "understanding": {"lang": lang},
        "text": text,
        "plan": {"tasks": [t.model_dump(mode="json") for t, _ in pairs]},
        "outcomes": {t.id: o.model_dump(mode="json") for t, o in pairs},
    }


def _facts(text: str) -> list[str]:
    return sorted(DOMAIN.answers.facts.findall(text))


def test_every_sentence_kind_is_worded_in_chinese_with_its_ids_kept(
    outcomes: list[tuple[Task, TaskOutcome]],
) -> None:
    told = set()
    for task, outcome in outcomes:
        en = DOMAIN.answers.describe(task, outcome, "en")
        zh = DOMAIN.answers.describe(task, outcome, "zh")
        assert len(zh) == len(en), task.skill
        if not en:
            continue
        told.add(task.skill)
        joined = " ".join(zh)
        assert WORDS_ZH[task.skill] in joined, (task.skill, joined)
        assert all(CJK.search(s) for s in zh) and not CJK.search(" ".join(en)), task.skill
        assert _facts(joined) == _facts(" ".join(en)), (task.skill, joined)
    assert told == set(WORDS_ZH)


def test_a_chinese_answer_from_every_result_passes_review(
    outcomes: list[tuple[Task, TaskOutcome]],
) -> None:
    state = _state("zh", outcomes, "帮我看看订单 #W2378156")
    draft = " ".join(compose_sentences(state, DOMAIN))
    assert "#W2378156" in draft and "已为您取消" in draft
    assert check(draft, state, DOMAIN.answers).approved
    english = _state("en", outcomes, "check order #W2378156")
    assert check(" ".join(compose_sentences(english, DOMAIN)), english, DOMAIN.answers).approved


def test_the_order_status_is_said_in_chinese_and_the_id_kept(
    outcomes: list[tuple[Task, TaskOutcome]],
) -> None:
    task, outcome = next(p for p in outcomes if p[0].skill == "get_order_details_v1")
    (sentence,) = DOMAIN.answers.describe(task, outcome, "zh")
    status = outcome.payload["status"]
    assert sentence.startswith(f"订单 {task.args['order_id']} 目前的状态是：")
    assert status not in sentence  # "delivered" is "已送达" to a Chinese customer
    (english,) = DOMAIN.answers.describe(task, outcome, "en")
    names = ", ".join(dict.fromkeys(i["name"] for i in outcome.payload["items"]))
    assert english == f"Order {task.args['order_id']} is {status}. Items: {names}."


def test_delay_verdicts_and_other_reasons_in_chinese() -> None:
    proposal = Proposal(question="why_late", role="logistics", answer="delayed", confidence=0.9,
                        evidence=("carrier scan 843053632392 late",))  # fmt: skip
    verdict = Decision(question="why_late", answer="delayed", rule="single", proposals=(proposal,))
    assert DOMAIN.answers.decision(verdict, "zh") == (
        "延误检查结果：包裹已延误（carrier scan 843053632392 late）。"
    )
    assert DOMAIN.answers.decision(verdict, "en") == (
        "Delay check: the shipment is delayed (carrier scan 843053632392 late)."
    )
    other = verdict.model_copy(update={"answer": "weather", "proposals": ()})
    assert DOMAIN.answers.decision(other, "zh") == "延误最可能的原因：weather。"


def test_failures_of_retail_steps_are_told_in_chinese() -> None:
    cancel = Task(id="t2", role="billing_specialist", skill="cancel_pending_order_v1",
                  args={"order_id": "#W6247578", "reason": "no longer needed"})  # fmt: skip
    failed = TaskOutcome(task_id="t2", skill=cancel.skill, role=cancel.role, status="failed",
                         error_code="precondition_failed", error="order is delivered")  # fmt: skip
    assert failure_sentence(failed, cancel, DOMAIN, "zh") == (
        "抱歉，订单 #W6247578 的“取消订单”操作没能完成：只有在订单为“待处理”状态时才能办理。"
    )
    assert precondition_text("modify_pending_order_address_v1", "zh") == (
        "订单为“待处理”或“待处理（商品已修改）”状态"
    )
    pay = Task(id="t3", role="billing_specialist", skill="modify_pending_order_payment_v1",
               args={"order_id": "#W6247578", "payment_method_id": "bind:user_payment:gift_card"})  # fmt: skip
    unbound = failed.model_copy(update={"skill": pay.skill, "error_code": "binding_error"})
    assert failure_sentence(unbound, pay, DOMAIN, "zh") == (
        "抱歉，订单 #W6247578 的“修改订单支付方式”操作没能完成："
        "您的账户中没有礼品卡，请指定账户里已有的一种支付方式。"
    )
    domain_error = failed.model_copy(update={"error_code": "domain_error"})
    assert "订单或账户目前的状态不允许这项操作" in failure_sentence(
        domain_error, cancel, DOMAIN, "zh"
    )


def test_retail_refusals_are_bilingual() -> None:
    for kind, refusal in DOMAIN.answers.refusals.items():
        assert CJK.search(refusal.zh) and not CJK.search(refusal.en), kind
    assert DOMAIN.answers.refusals["foreign"].zh.format(ids="#W0000001") == (
        "我在您的订单中找不到 #W0000001，所以无法为您办理。"
    )
    bulk = DOMAIN.intent("bulk_modify")
    assert bulk is not None and bulk.refusal is not None
    assert "一次更改多个订单" in bulk.refusal.say("zh")


def test_a_chinese_claim_needs_its_step() -> None:
    # A draft saying an order is cancelled while no cancel succeeded is sent back.
    state = _state("zh", [], "取消订单 #W6247578")
    verdict = check(
        "订单 #W6247578 已为您取消，款项将原路退回到原支付方式。", state, DOMAIN.answers
    )
    assert verdict.feedback == ("claim without a successful step: 已为您取消",)
