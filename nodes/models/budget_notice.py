"""The last rung of the ladder under a token budget: tell the customer, notify the operators.

When a budget kept every model tier from a node and its rules tier cannot do
the node's job, the customer is told so in one clear sentence, not answered
as if the request were out of scope, and every operator channel (the
approvals' e-mail and webhook, `ROLEGRAPH_OPERATOR_EMAIL` /
`ROLEGRAPH_APPROVAL_WEBHOOK`) gets one notice per request and node through the
outbox. The notice's idempotency key names the request, so a node that runs
again on resume or after a crash queues nothing twice.
"""

from __future__ import annotations

import json
import logging

from checkpoints import outbox
from checkpoints.opening import Pool
from checkpoints.outbox import Notification
from nodes.language import Lang, say
from nodes.models.accounting import CallSite
from nodes.models.budget import BUDGET_SETTINGS, BudgetScope
from skills.outbox.operator_settings import OperatorNotices

log = logging.getLogger(__name__)
WEBHOOK_EVENT = "rolegraph.budget.spent"
BUDGET_SPENT = "budget_spent"
"""The error code of a step no tier could take because a token budget is spent."""


def budget_spent_text(lang: Lang) -> str:
    """What the customer is told when a spent budget leaves their request unanswered."""
    return say(
        lang,
        "I can't work on that request right now: the automated assistant has used up its"
        " allowance for the moment. An operator has been told and will follow up with you.",
        "我现在无法处理这个请求：自动助手的使用额度暂时已用完。已通知工作人员，他们会跟进您的请求。",
    )


async def notify_budget_spent(
    pool: Pool, notices: OperatorNotices, site: CallSite, over: BudgetScope, user_id: str
) -> list[Notification]:
    """Queue the operators' notices that `over` stopped `site`'s request; the rows queued."""
    log.warning("%s: the %s token budget (%s) is spent", site.node, over, BUDGET_SETTINGS[over])
    key = f"budget:{site.thread_id or '-'}:{site.audit_id or '-'}:{site.node}"
    subject, body = operator_mail(site, over, user_id)
    async with pool.connection() as conn, conn.transaction():
        rows = [
            await outbox.enqueue(
                conn, user_id=user_id, recipient=address, subject=subject, body=body,
                key=f"{key}:email:{address}",
            )
            for address in notices.recipients
        ]  # fmt: skip
        if notices.webhook_url:
            hook = await outbox.enqueue(
                conn, user_id=user_id, recipient=notices.webhook_url,
                subject=f"{over} token budget spent", body=_webhook_body(site, over, user_id),
                key=f"{key}:webhook", channel="webhook",
            )  # fmt: skip
            rows.append(hook)
    return rows


def operator_mail(site: CallSite, over: BudgetScope, user_id: str) -> tuple[str, str]:
    """Subject and body of the operators' e-mail about a spent budget."""
    thread = site.thread_id or "-"
    subject = f"[rolegraph] {over} token budget spent on thread {thread}"
    body = (
        f"The {over} token budget ({BUDGET_SETTINGS[over]}) kept the model tiers from node"
        f" {site.node}, and its rules tier could not answer.\n\nCustomer:  {user_id}\n"
        f"Thread:    {thread}\nAudit id:  {site.audit_id or '-'}\n"
        "The customer was told an operator will follow up.\n"
    )
    return subject, body


def _webhook_body(site: CallSite, over: BudgetScope, user_id: str) -> str:
    payload = {
        "event": WEBHOOK_EVENT,
        "budget": over,
        "node": site.node,
        "thread_id": site.thread_id,
        "audit_id": site.audit_id,
        "customer_id": user_id,
    }
    return json.dumps(payload, sort_keys=True, separators=(",", ":"))
