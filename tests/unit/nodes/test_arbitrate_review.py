from __future__ import annotations

from nodes.arbitrate import decide, to_proposal
from nodes.contracts import Proposal, TaskOutcome
from nodes.review import check

Q = "why_is_my_shipment_late"


def _p(answer: str, confidence: float, role: str = "r") -> Proposal:
    return Proposal(question=Q, role=role, answer=answer, confidence=confidence)


def test_confident_proposal_is_adopted_when_nobody_credible_disagrees() -> None:
    d = decide(Q, [_p("carrier backlog", 0.95), _p("weather", 0.5), _p("weather", 0.55)])
    assert (d.answer, d.rule) == ("carrier backlog", "adopt_confident")


def test_credible_dissent_forces_a_weighted_vote() -> None:
    d = decide(Q, [_p("carrier backlog", 0.95), _p("weather", 0.7), _p("weather", 0.65)])
    assert d.rule == "weighted_vote"
    assert d.answer == "weather"  # 1.35 > 0.95


def test_without_a_confident_proposal_the_weighted_vote_decides() -> None:
    d = decide(Q, [_p("a", 0.5), _p("b", 0.3), _p("b", 0.3)])
    assert (d.answer, d.rule) == ("b", "weighted_vote")
    assert decide(Q, [_p("only", 0.2)]).rule == "single"


def test_proposal_from_untrusted_payload_clamps_confidence() -> None:
    outcome = TaskOutcome(
        task_id="t1", skill="detect_delay_pattern_v1", role="logistics_analyst", status="succeeded",
        payload={"verdict": "stalled in transit", "confidence": 7, "evidence": ["x" * 999]},
    )  # fmt: skip
    p = to_proposal(Q, outcome)
    assert p.confidence == 1.0 and p.answer == "stalled in transit"
    assert len(p.evidence[0]) == 200


def _state(**outcomes: dict) -> dict:  # type: ignore[type-arg]
    return {"text": "where is #W1234567", "outcomes": outcomes}


def test_review_accepts_facts_found_in_results() -> None:
    ok = {
        "t1": {
            "skill": "get_order_details_v1",
            "status": "succeeded",
            "payload": {"order_id": "#W1234567"},
        }
    }
    verdict = check("Order #W1234567 is pending.", _state(**ok))
    assert verdict.approved, verdict.feedback


def test_review_flags_untraceable_facts_pii_and_unsupported_claims() -> None:
    verdict = check(
        "Order #W7654321 is now cancelled and $12.50 was refunded to bob@example.com.",
        _state(t1={"skill": "get_order_details_v1", "status": "succeeded", "payload": {}}),
    )
    assert not verdict.approved
    joined = " | ".join(verdict.feedback)
    assert "untraceable fact: #W7654321" in joined
    assert "$12.50" in joined
    assert "unmasked PII: bob@example.com" in joined
    assert "claim without a successful step: is now cancelled" in joined
