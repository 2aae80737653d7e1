"""The customer's language: which one a turn is in, and wording in it.

A turn is answered in the language its customer wrote (issue 9 §2). The
harness and every domain pack word their sentences in both supported
languages; `say` picks one so no caller branches on the language itself.
"""

from __future__ import annotations

import re
from typing import Literal

Lang = Literal["en", "zh"]
LANGS: tuple[Lang, ...] = ("en", "zh")

CJK = re.compile(r"[\u4e00-\u9fff]")


def lang_of(text: object) -> Lang:
    """ "zh" when the text holds any Chinese character, else "en"."""
    return "zh" if isinstance(text, str) and CJK.search(text) else "en"


def say(lang: Lang, en: str, zh: str) -> str:
    """The wording of one sentence in `lang`."""
    return zh if lang == "zh" else en
