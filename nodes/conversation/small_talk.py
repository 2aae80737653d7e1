"""Small talk: a greeting, a thank-you or a goodbye is answered politely, not refused."""

from __future__ import annotations

from nodes.conversation.words import SMALL_TALK
from nodes.language import Lang, say

_REPLIES: dict[str, tuple[str, str]] = {
    "greeting": ("Hello! How can I help you today?", "您好！请问有什么可以帮您？"),
    "thanks": (
        "You're welcome! Is there anything else I can help with?",
        "不客气！还有什么可以帮您的吗？",
    ),
    "bye": ("Thank you for contacting us. Goodbye!", "感谢您的咨询，再见！"),
}


def small_talk_reply(text: str, lang: Lang) -> str | None:
    """The polite answer to a message that is only small talk, else None."""
    lowered = text.lower().strip()
    kind = next((k for k, pattern in SMALL_TALK.items() if pattern.match(lowered)), None)
    return say(lang, *_REPLIES[kind]) if kind else None
