"""The notification sentence states what is true: queued, sent or failed."""

from __future__ import annotations

from typing import Any

import pytest

from domains.retail.pack import DOMAIN
from nodes.compose import compose_sentences
from nodes.review import check

ARGS = {"user_id": "u_1", "subject": "s", "body": "b"}


def _state(status: str) -> Any:
    payload = {
        "notification_id": 7,
        "recipient": "y***@example.com",
        "status": status,
        "message_id": None,
    }  # send_notification_v1's shape (results.Notification)
    outcome = {
        "task_id": "n", "skill": "send_notification_v1", "role": "notifier",
        "status": "succeeded", "payload": payload,
    }  # fmt: skip
    task = {"id": "n", "role": "notifier", "skill": "send_notification_v1", "args": ARGS}
    return {"plan": {"tasks": [task]}, "outcomes": {"n": outcome}, "text": "email me"}


@pytest.mark.parametrize(
    ("status", "sentence"),
    [
        ("queued", "A notification to y***@example.com is queued for delivery."),
        ("sent", "A notification was sent to y***@example.com."),
        ("failed", "A notification to y***@example.com could not be delivered."),
    ],
)
def test_the_sentence_follows_the_outbox_status(status: str, sentence: str) -> None:
    assert compose_sentences(_state(status), DOMAIN) == [sentence]


def test_a_queued_claim_needs_a_successful_notification_step() -> None:
    state = _state("queued")
    assert check(
        "A notification to y***@example.com is queued for delivery.", state, DOMAIN.answers
    ).approved
    state["outcomes"]["n"]["status"] = "failed"
    verdict = check(
        "A notification to y***@example.com is queued for delivery.", state, DOMAIN.answers
    )
    assert "claim without a successful step: is queued for delivery" in verdict.feedback
