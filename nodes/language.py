"""The customer's language: which one a turn is in, and wording in it.

A turn is answered in the language its customer wrote (issue 9 §2). The
harness and every domain pack word their sentences in both supported
languages; `say` picks one so no caller branches on the language itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

Lang = Literal["en", "zh"]
LANGS: tuple[Lang, ...] = ("en", "zh")

CJK = re.compile(r"[\u4e00-\u9fff]")
CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")
"""A run of Chinese characters: the unit the reviewer checks a draft's language by."""


def lang_of(text: object) -> Lang:
    """ "zh" when the text holds any Chinese character, else "en"."""
    return "zh" if isinstance(text, str) and CJK.search(text) else "en"


def say(lang: Lang, en: str, zh: str) -> str:
    """The wording of one sentence in `lang`."""
    return zh if lang == "zh" else en


@dataclass(frozen=True)
class Bilingual:
    """One text in both supported languages (a refusal, a reason, a template)."""

    en: str
    zh: str

    def say(self, lang: Lang) -> str:
        """The text in `lang`."""
        return say(lang, self.en, self.zh)


def turn_lang(state: Mapping[str, object]) -> Lang:
    """The turn's language: its understanding's, else its text's (a turn refused
    before it was understood)."""
    understanding = state.get("understanding")
    lang = understanding.get("lang") if isinstance(understanding, Mapping) else None
    return next((known for known in LANGS if known == lang), None) or lang_of(state.get("text"))


def join_sentences(sentences: Iterable[str], lang: Lang) -> str:
    """Sentences as one text: English ones spaced; Chinese ones run on after full-width
    punctuation, as Chinese is written (a space only after a sentence ending in ASCII)."""
    text = ""
    for sentence in sentences:
        if text and (lang == "en" or text[-1].isascii()):
            text += " "
        text += sentence
    return text
