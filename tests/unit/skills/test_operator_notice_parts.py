"""Operator notices: their settings, the e-mail and webhook they make, and what a
webhook's answer means."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

import pytest

from checkpoints.approvals import RequestRow
from checkpoints.errors import ConfigurationError
from checkpoints.outbox import Notification, message_id_for
from skills.outbox.operator_settings import DEFAULT_INBOX_URL, OperatorNotices
from skills.outbox.operators import operator_mail, webhook_body
from skills.outbox.settings import DeliverySettings
from skills.outbox.smtp import build_message
from skills.outbox.webhook import attempt_webhook, signature, verdict_of
from tests.http_servers import Receiver, receiving
from tests.smtp_servers import free_port

ESCALATION = RequestRow(
    request_id="esc-1", thread_id="t-1", kind="escalation", audit_id="a-1",
    reason="customer asks for a person", user_id="u-1",
)  # fmt: skip


def test_unset_means_nobody_is_told_and_links_point_at_the_local_inbox() -> None:
    notices = OperatorNotices.from_env({})
    assert notices.recipients == () and notices.webhook_url is None
    assert notices.link("apr-1") == f"{DEFAULT_INBOX_URL}/requests/apr-1"


def test_addresses_are_a_comma_list_and_links_follow_the_inbox_url() -> None:
    notices = OperatorNotices.from_env({
        "ROLEGRAPH_OPERATOR_EMAIL": " a@ops.test, b@ops.test,,a@ops.test ",
        "ROLEGRAPH_APPROVAL_WEBHOOK": "https://hooks.test/x?token=1",
        "ROLEGRAPH_INBOX_URL": "https://ops.test/inbox/",
    })  # fmt: skip
    assert notices.recipients == ("a@ops.test", "b@ops.test")
    assert notices.webhook_url == "https://hooks.test/x?token=1"
    assert notices.link("apr/1 x") == "https://ops.test/inbox/requests/apr%2F1%20x"


@pytest.mark.parametrize(
    ("name", "value"),
    [("ROLEGRAPH_OPERATOR_EMAIL", "ops@x.test\r\nBcc: y@z.test"),
     ("ROLEGRAPH_OPERATOR_EMAIL", "Ops <ops@x.test>"), ("ROLEGRAPH_OPERATOR_EMAIL", "nobody"),
     ("ROLEGRAPH_APPROVAL_WEBHOOK", "ftp://hooks.test/"), ("ROLEGRAPH_INBOX_URL", "inbox")],
)  # fmt: skip
def test_a_malformed_value_is_one_line_naming_the_variable(name: str, value: str) -> None:
    with pytest.raises(ConfigurationError, match=f"^{name} ") as caught:
        OperatorNotices.from_env({name: value})
    assert "\n" not in str(caught.value).replace(repr(value), "")


def test_the_worker_claims_only_the_channels_it_can_deliver() -> None:
    assert DeliverySettings.from_env({}).channels == ()
    assert DeliverySettings.from_env({"SMTP_HOST": "mx"}).channels == ("email",)
    both = DeliverySettings.from_env({"SMTP_HOST": "mx", "ROLEGRAPH_APPROVAL_WEBHOOK": "http://h"})
    assert both.channels == ("email", "webhook") and both.webhook_secret is None
    signed = DeliverySettings.from_env({"ROLEGRAPH_APPROVAL_WEBHOOK_SECRET": " s "})
    assert signed.webhook_secret == "s" and signed.channels == ()


def test_an_escalation_mail_names_thread_customer_and_link() -> None:
    subject, body = operator_mail(ESCALATION, "https://ops.test/requests/esc-1")
    assert subject == "[rolegraph] escalation waiting on thread t-1"
    assert body.startswith("A request is waiting for an operator: https://ops.test/requests/esc-1")
    assert "Customer:  u-1" in body and "Arguments: none" in body


def test_a_subject_with_line_breaks_stays_one_header() -> None:
    row = _row(subject="hello\r\nBcc: victim@x.test\x00", body="line one\r\n.\r\nBcc: x")
    data = build_message(row, "from@x.test").as_bytes()
    headers = data.split(b"\n\n", 1)[0].split(b"\n")
    assert [h for h in headers if h.lower().startswith(b"bcc")] == []
    assert b"Subject: hello Bcc: victim@x.test" in headers


def test_the_webhook_body_names_ids_only() -> None:
    row = RequestRow(
        request_id="apr-1", thread_id="t-1", kind="approval", audit_id="a-1", reason="r",
        skill="s_v1", risk="high", args={"email": "c@x.test"}, user_id="u-1",
    )  # fmt: skip
    body = json.loads(webhook_body(row, "L"))
    assert body["customer_id"] == "u-1" and body["link"] == "L" and "c@x.test" not in str(body)


def test_the_signature_is_hmac_sha256_of_the_exact_body() -> None:
    expected = hmac.new(b"k", b'{"a":1}', hashlib.sha256).hexdigest()
    assert signature("k", b'{"a":1}') == f"sha256={expected}"


@pytest.mark.parametrize(
    ("status", "verdict"),
    [(200, "sent"), (204, "sent"), (500, "retry"), (503, "retry"), (429, "retry"),
     (408, "retry"), (400, "failed"), (404, "failed"), (301, "failed")],
)  # fmt: skip
def test_what_a_webhook_answer_means(status: int, verdict: str) -> None:
    assert verdict_of(status).verdict == verdict


async def test_a_refused_connection_is_retried_and_a_hang_up_is_unknown() -> None:
    settings = DeliverySettings(webhooks=True)
    refused = _row(recipient=f"http://127.0.0.1:{free_port()}/")
    assert (await attempt_webhook(refused, settings, _allowed(True))).verdict == "retry"
    receiver = Receiver(statuses=[0])
    with receiving(receiver) as url:
        hung_up = await attempt_webhook(_row(recipient=url), settings, _allowed(True))
        lost = await attempt_webhook(_row(recipient=url), settings, _allowed(False))
    assert hung_up.verdict == "unknown" and len(receiver.received) == 1
    assert lost.verdict == "lost_claim"  # nothing sent once the claim is gone


def _allowed(answer: bool) -> Callable[[], Awaitable[bool]]:
    async def before_data() -> bool:
        return answer

    return before_data


def _row(subject: str = "s", body: str = "{}", recipient: str = "ops@x.test") -> Notification:
    return Notification(
        id=1, user_id="u-1", channel="webhook", recipient=recipient, subject=subject, body=body,
        status="sending", attempts=0, last_error=None, idempotency_key="k",
        message_id=message_id_for("k"), next_attempt_at=datetime.now(UTC), claimed_by="w",
        created_at=datetime.now(UTC), sent_at=None,
    )  # fmt: skip
