"""Small talk: a greeting, a thank-you, a goodbye, or a yes with nothing asked, is
answered politely, not refused."""

from __future__ import annotations

from nodes.conversation.words import NO, SMALL_TALK, YES
from nodes.language import Lang, say

_REPLIES: dict[str, tuple[str, str]] = {
    "greeting": ("Hello! How can I help you today?", "您好！请问有什么可以帮您？"),
    "thanks": (
        "You're welcome! Is there anything else I can help with?",
        "不客气！还有什么可以帮您的吗？",
    ),
    "bye": ("Thank you for contacting us. Goodbye!", "感谢您的咨询，再见！"),
    "answer": (
        "There is nothing waiting for your answer right now. How can I help?",
        "目前没有需要您回答的问题。请问有什么可以帮您？",
    ),
}


def small_talk_reply(text: str, lang: Lang) -> str | None:
    """The polite answer to a message that is only small talk, else None."""
    lowered = text.lower().strip()
    kind = next((k for k, pattern in SMALL_TALK.items() if pattern.match(lowered)), None)
    if kind is None and (YES.match(lowered) or NO.fullmatch(lowered)):
        kind = "answer"  # a "yes" or "no" with no question open
    return say(lang, *_REPLIES[kind]) if kind else None
