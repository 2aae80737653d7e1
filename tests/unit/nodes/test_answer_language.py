"""A turn is answered in its customer's language: the harness's own wording (failed,
skipped, rejected steps, refusals, a colleague's reply, "nothing done") and the
reviewer's language check, on a domain the harness does not know."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType, SimpleNamespace
from typing import Any

import pytest

from checkpoints.migrations import MigrationSource
from nodes.compose import NOTHING_DONE, compose, compose_sentences
from nodes.contracts import Decision, Task, TaskOutcome
from nodes.domain import Domain, SlotSpec, Stance
from nodes.failure_text import REASONS, plan_refusal
from nodes.intake.customer import REFUSE_OTHER_CUSTOMER, REFUSE_UNAUTHENTICATED
from nodes.intake.node import DEFAULT_REFUSALS
from nodes.language import CJK, Bilingual, Lang, join_sentences, say, turn_lang
from nodes.review import check, language_feedback
from skills.resources import ResourceVocabulary


class DeskAnswers:
    """A loans desk that words its one read and one write in both languages."""

    facts = re.compile(r"LN-\d{5}|\$\d+(?:\.\d{2})?|\d+(?:\.\d{1,2})? ?美元")
    claims: Mapping[str, str] = MappingProxyType({"is renewed": "renew_v1", "已续借": "renew_v1"})
    refusals: Mapping[str, Bilingual] = MappingProxyType({})
    foreign: Mapping[str, str] = MappingProxyType({})
    reasons: Mapping[str, Bilingual] = MappingProxyType({})

    def describe(
        self, task: Task, outcome: TaskOutcome, lang: Lang, *, feeds: bool = False
    ) -> list[str]:
        loan = task.args["loan_id"]
        if outcome.skill == "renew_v1":
            return [say(lang, f"Loan {loan} is renewed.", f"借阅 {loan} 已续借。")]
        fine = outcome.payload["fine"]
        return [say(lang, f"Loan {loan} owes ${fine}.", f"借阅 {loan} 欠款 ${fine}。")]

    def supersedes(self, write: Task, read: Task) -> bool:
        return False

    def own_ids(self, outcome: TaskOutcome) -> tuple[str, ...]:
        return ()

    def stance(self, outcome: TaskOutcome) -> Stance | None:
        return None

    def decision(self, decision: Decision, lang: Lang) -> str:
        return decision.answer

    def target(self, task: Task, lang: Lang) -> str:
        loan = task.args.get("loan_id")
        return say(lang, f" for loan {loan}", f"借阅 {loan} 的") if loan else ""

    def step(self, skill: str, lang: Lang) -> str | None:
        return {"renew_v1": "续借", "notify_v1": "发送提醒"}.get(skill) if lang == "zh" else None

    def binding_reason(self, task: Task, lang: Lang) -> str | None:
        return None

    def declined(
        self, task: Task, outcome: TaskOutcome, results: Mapping[str, Any], lang: Lang
    ) -> str | None:
        if outcome.skill != "renew_v1" or outcome.error_code != "domain_error":
            return None
        loan = task.args["loan_id"]
        return say(lang, f"Loan {loan} was renewed twice already; please return it.",
                   f"借阅 {loan} 已续借两次，请按时归还。")  # fmt: skip


DOMAIN = Domain(
    name="desk",
    catalog=Path("."),
    roles=Path("."),
    knowledge=Path("."),
    prompts=Path("."),
    migrations=MigrationSource("desk", Path(".")),
    resources=ResourceVocabulary(frozenset(), frozenset(), frozenset()),
    understanding=SimpleNamespace(
        slots=(SlotSpec("loan_ids", "loans", kind="identifier", pattern=r"LN-\d{5}", owned=True),)
    ),  # type: ignore[arg-type]
    records=None,  # type: ignore[arg-type]
    planning=SimpleNamespace(precondition_text=lambda skill, lang: None),  # type: ignore[arg-type]
    answers=DeskAnswers(),
)
READ = Task(id="t1", role="desk", skill="get_loan_v1", args={"loan_id": "LN-20001"})
RENEW = Task(id="t2", role="desk", skill="renew_v1", args={"loan_id": "LN-20001"})
NOTIFY = Task(id="t3", role="desk", skill="notify_v1", args={}, depends_on=("t2",))


def _outcome(task: Task, status: str, **fields: Any) -> dict[str, Any]:
    return TaskOutcome(task_id=task.id, skill=task.skill, role=task.role, status=status,  # type: ignore[arg-type]
                       **fields).model_dump(mode="json")  # fmt: skip


def _state(lang: Lang, *outcomes: tuple[Task, dict[str, Any]], **more: Any) -> Any:
    text = "我的借阅 LN-20001" if lang == "zh" else "my loan LN-20001"
    return {
        "understanding": {"lang": lang},
        "text": text,
        "plan": {"tasks": [t.model_dump(mode="json") for t, _ in outcomes]},
        "outcomes": {t.id: o for t, o in outcomes},
        **more,
    }


def test_failed_skipped_and_rejected_steps_are_told_in_chinese() -> None:
    failed = _state("zh", (RENEW, _outcome(RENEW, "failed", error_code="timeout", error="boom")),
                    (NOTIFY, _outcome(NOTIFY, "skipped")))  # fmt: skip
    assert compose_sentences(failed, DOMAIN) == [
        "抱歉，借阅 LN-20001 的“续借”操作没能完成：相关服务暂时没有响应，请稍后再试。",
        "“发送提醒”操作没有执行：它所依赖的前一步没有成功。",
    ]
    rejected = _state("zh", (RENEW, _outcome(RENEW, "rejected")))
    assert compose_sentences(rejected, DOMAIN) == ["审核人员否决了“续借”操作，没有做任何更改。"]
    english = _state("en", (RENEW, _outcome(RENEW, "rejected")))
    assert compose_sentences(english, DOMAIN) == [
        "The renew step was rejected by a reviewer; nothing was changed."
    ]


def test_every_harness_reason_and_refusal_has_chinese_wording() -> None:
    texts = [*REASONS.values(), *DEFAULT_REFUSALS.values(), REFUSE_OTHER_CUSTOMER,
             REFUSE_UNAUTHENTICATED, NOTHING_DONE]  # fmt: skip
    for text in texts:
        assert CJK.search(text.zh) and not CJK.search(text.en), text
    assert plan_refusal("forbidden", "zh") == (
        "抱歉，这个我无法办理：这会涉及其他客户的数据，或一次改动很多条记录。"
    )
    assert plan_refusal("forbidden", "en").startswith("I can't do that: it would touch")


def test_a_colleagues_reply_and_a_refusal_are_passed_on_in_the_turns_language() -> None:
    replied = _state("zh", human_reply="Your loan is fine.")
    assert compose_sentences(replied, DOMAIN) == ["客服同事回复：Your loan is fine."]
    assert check("客服同事回复：Your loan is fine.", replied, DOMAIN.answers).approved
    refused = _state("zh", refusal=DEFAULT_REFUSALS["out_of_scope"].zh)
    assert compose_sentences(refused, DOMAIN) == ["这个请求超出了我能办理的范围。"]


async def test_nothing_done_is_said_in_chinese() -> None:
    runtime = SimpleNamespace(context=SimpleNamespace(domain=DOMAIN, models=None))
    out = await compose(_state("zh"), runtime)  # type: ignore[arg-type]
    assert out["draft"] == "抱歉，我没能完成您的请求。"
    assert check(out["draft"], _state("zh"), DOMAIN.answers).approved


async def test_a_chinese_draft_runs_its_sentences_on_as_chinese_is_written() -> None:
    runtime = SimpleNamespace(context=SimpleNamespace(domain=DOMAIN, models=None))
    read = (READ, _outcome(READ, "succeeded", payload={"fine": 54.04}))
    renew = (RENEW, _outcome(RENEW, "succeeded"))
    zh = await compose(_state("zh", read, renew), runtime)  # type: ignore[arg-type]
    assert zh["draft"] == "借阅 LN-20001 欠款 $54.04。借阅 LN-20001 已续借。"
    en = await compose(_state("en", read, renew), runtime)  # type: ignore[arg-type]
    assert en["draft"] == "Loan LN-20001 owes $54.04. Loan LN-20001 is renewed."
    assert join_sentences(["From the FAQ: Only while pending.", "借阅已续借。"], "zh") == (
        "From the FAQ: Only while pending. 借阅已续借。"
    )


def test_a_turn_refused_before_it_was_understood_takes_the_texts_language() -> None:
    assert turn_lang({"text": "帮我看看"}) == "zh"
    assert turn_lang({"text": "help", "understanding": None}) == "en"
    assert turn_lang({"text": "帮我看看", "understanding": {"lang": "en"}}) == "en"


@pytest.mark.parametrize(
    ("lang", "draft", "feedback"),
    [
        ("zh", "Loan LN-20001 owes $54.04.", ["not in the customer's language: no Chinese sentence"]),
        ("en", "借阅 LN-20001 欠款 $54.04。", ["not in the customer's language: 借阅",
                                             "not in the customer's language: 欠款"]),
        ("zh", "借阅 LN-20001 欠款 $54.04。", []),
        ("en", "Loan LN-20001 owes $54.04.", []),
        # Chinese the data holds is quoted, not the answer's language.
        ("en", "Loan LN-20001: 红楼梦.", []),
        ("zh", "红楼梦", ["not in the customer's language: no Chinese sentence"]),
    ],
)  # fmt: skip
def test_the_reviewer_sends_back_a_draft_in_the_wrong_language(
    lang: Lang, draft: str, feedback: list[str]
) -> None:
    state = _state(
        lang, (READ, _outcome(READ, "succeeded", payload={"fine": 54.04, "title": "红楼梦"}))
    )
    assert language_feedback(draft, state) == feedback
    assert check(draft, state, DOMAIN.answers).approved == (not feedback)


def test_the_template_answer_passes_the_language_check_in_both_languages() -> None:
    for lang in ("zh", "en"):
        state = _state(lang, (READ, _outcome(READ, "succeeded", payload={"fine": 54.04})),
                       (RENEW, _outcome(RENEW, "succeeded")))  # fmt: skip
        draft = " ".join(compose_sentences(state, DOMAIN))
        assert check(draft, state, DOMAIN.answers).approved, draft


@pytest.mark.parametrize(
    ("draft", "untraced"),
    [
        ("借阅 LN-20001 欠款 $54.04。", ()),
        ("借阅LN-20001欠款54.04美元，请尽快缴纳。", ()),
        ("借阅 LN-20001 欠款 $99.99。", ("$99.99",)),
        ("借阅 LN-20009 欠款 12.50 美元。", ("LN-20009", "12.50 美元")),
    ],
)
def test_ids_and_amounts_in_a_chinese_draft_are_traced(
    draft: str, untraced: tuple[str, ...]
) -> None:
    state = _state("zh", (READ, _outcome(READ, "succeeded", payload={"fine": 54.04})))
    feedback = check(draft, state, DOMAIN.answers).feedback
    assert feedback == tuple(f"untraceable fact: {fact}" for fact in untraced)


def test_a_declined_write_is_told_in_the_domains_words_and_an_unworded_one_by_its_code() -> None:
    declined = _state("zh", (RENEW, _outcome(RENEW, "failed", error_code="domain_error",
                                             error="renewals >= 2")))  # fmt: skip
    assert compose_sentences(declined, DOMAIN) == ["借阅 LN-20001 已续借两次，请按时归还。"]
    english = _state("en", (RENEW, _outcome(RENEW, "failed", error_code="domain_error",
                                            error="renewals >= 2")))  # fmt: skip
    sentences = compose_sentences(english, DOMAIN)
    assert sentences == ["Loan LN-20001 was renewed twice already; please return it."]
    assert check(" ".join(sentences), english, DOMAIN.answers).approved
    # A decline the domain has no words for is told from its code, as before.
    unworded = _state("en", (RENEW, _outcome(RENEW, "failed", error_code="not_found", error="x")))
    assert compose_sentences(unworded, DOMAIN) == [
        "I could not complete renew for loan LN-20001: I could not find that on your account."
    ]


def test_an_agents_closing_text_is_not_data_the_answers_chinese_may_be_quoting() -> None:
    # A weak agent beside the read closes with an invented amount, which the fact check
    # keeps out of the answer; the template's own Chinese sentence uses the same words.
    goal = Task(id="g1", role="desk", goal="look at the loan")
    invented = "借阅 LN-20001 欠款 $99.99。"
    findings = {"goal": goal.goal, "calls": [], "answer": invented, "stopped": "done"}
    state = _state("zh", (READ, _outcome(READ, "succeeded", payload={"fine": 54.04})),
                   (goal, _outcome(goal, "succeeded", payload=findings)))  # fmt: skip
    draft = " ".join(compose_sentences(state, DOMAIN))
    assert draft == "借阅 LN-20001 欠款 $54.04。"
    assert check(draft, state, DOMAIN.answers).approved, draft
    # What the agent's calls returned is still data: quoted Chinese is not the wording.
    findings["calls"] = [{"skill": "get_loan_v1", "args": {}, "status": "succeeded",
                          "payload": {"title": "红楼梦"}, "error_code": None}]  # fmt: skip
    state["outcomes"]["g1"] = _outcome(goal, "succeeded", payload=findings)
    assert language_feedback("红楼梦", state) == [
        "not in the customer's language: no Chinese sentence"
    ]
