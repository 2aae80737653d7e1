"""Operators are told a request is waiting: an e-mail per operator address and,
when configured, a webhook, queued in the outbox.

`notify_operators` runs inside the transaction that records the request, and
only for the insert that created it, so the notice commits with the request
(a crash leaves both or neither) and a node that re-runs on resume or after
a crash queues nothing again; each row's idempotency key names the request,
so even a second call could not queue a duplicate. Delivery is the outbox
worker's: retries, backoff and fencing are the same for both channels.

The e-mail carries what an operator decides on (customer, skill, risk,
arguments, reason) and a link to the request; the webhook body names the
request and the customer by id only, since it leaves for a system we do
not control.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from checkpoints import outbox
from checkpoints.approvals import RequestRow
from checkpoints.outbox import Conn, Notification
from skills.outbox.operator_settings import OperatorNotices
from skills.outbox.smtp import one_line

WEBHOOK_EVENT = "rolegraph.request.waiting"
_VALUE_LIMIT = 500


async def notify_operators(
    conn: Conn, notices: OperatorNotices, request: RequestRow
) -> list[Notification]:
    """Queue the operators' notices of a request just recorded; the rows queued."""
    link = notices.link(request.request_id)
    customer = request.user_id or "unknown"
    rows = []
    if notices.recipients:
        subject, body = operator_mail(request, link)
        for address in notices.recipients:
            key = f"operator:{request.request_id}:email:{address}"
            row = await outbox.enqueue(
                conn, user_id=customer, recipient=address, subject=subject, body=body, key=key
            )
            rows.append(row)
    if notices.webhook_url:
        row = await outbox.enqueue(
            conn,
            user_id=customer,
            recipient=notices.webhook_url,
            subject=f"{request.kind} waiting",
            body=webhook_body(request, link),
            key=f"operator:{request.request_id}:webhook",
            channel="webhook",
        )
        rows.append(row)
    return rows


def operator_mail(request: RequestRow, link: str) -> tuple[str, str]:
    """Subject and body of the operators' e-mail about `request`."""
    what = f"{request.kind} waiting" + (f": {request.skill}" if request.skill else "")
    subject = one_line(f"[rolegraph] {what} on thread {request.thread_id}")[:200]
    lines = [
        f"A request is waiting for an operator: {link}",
        "",
        f"Kind:      {request.kind}",
        f"Customer:  {request.user_id or 'unknown'}",
        f"Thread:    {request.thread_id}",
        f"Skill:     {request.skill or '-'}",
        f"Risk:      {request.risk or '-'}",
        f"Reason:    {one_line(request.reason)[:_VALUE_LIMIT]}",
        "Arguments:" + ("" if request.args else " none"),
        *_argument_lines(request.args or {}),
        "",
        f"Request id: {request.request_id}",
        f"Audit id:   {request.audit_id}",
    ]
    return subject, "\n".join(lines) + "\n"


def webhook_body(request: RequestRow, link: str) -> str:
    """The JSON posted to the webhook: ids, kind, skill, risk and the link; no arguments."""
    payload = {
        "event": WEBHOOK_EVENT,
        "request_id": request.request_id,
        "thread_id": request.thread_id,
        "kind": request.kind,
        "skill": request.skill,
        "risk": request.risk,
        "customer_id": request.user_id,
        "link": link,
    }
    return json.dumps(payload, sort_keys=True, separators=(",", ":"))


def _argument_lines(args: dict[str, Any]) -> Iterable[str]:
    # JSON keeps a value on one line and shows it exactly as the call would receive it.
    for name, value in sorted(args.items()):
        shown = json.dumps(value, ensure_ascii=False, default=str)
        yield f"  {one_line(str(name))}: {shown[:_VALUE_LIMIT]}"
