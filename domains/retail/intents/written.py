"""Whole messages written by hand as customers type them (`written/*.yaml`), taught
beside the templates: templates vary a few frames by their slots, while these carry the
wording, order of clauses and run-on sentences no frame foresees.

Each message becomes a one-text group of its labels. Its order ids are turned into
`{order}` slots, so its later renders name other ids, or the order without one.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import yaml

from domains.retail.intents.group import Group
from nodes.language import Lang, lang_of

FOLDER = Path(__file__).with_name("written")
RENDERS = 3
"""Each message once as written and twice paraphrased: fewer than a template, whose
renders also vary what fills it. Four renders read the development sets no better (set F
94.7 % at both) and made the corpus a fifth larger and its training a fifth slower."""
KIND = "written"
_ORDER = re.compile(r"(?<![A-Za-z0-9_])#?[Ww]\d{7}(?!\d)")


@cache
def written() -> dict[Lang, tuple[Group, ...]]:
    """Every written message as a group, by language (mixed Chinese/English is "zh")."""
    found: dict[Lang, list[Group]] = {"en": [], "zh": []}
    for path in sorted(FOLDER.glob("*.yaml")):
        for row in yaml.safe_load(path.read_text(encoding="utf-8")):
            text = " ".join(str(row["text"]).split())
            intents = tuple(sorted(row["intents"]))
            found[lang_of(text)].append(Group(KIND, intents, (template(text),), RENDERS))
    return {lang: tuple(groups) for lang, groups in found.items()}


def template(text: str) -> str:
    """`text` as a template: braces escaped, its first two order ids made slots (a third
    stays as written, since the corpus has two order slots)."""
    text = text.replace("{", "{{").replace("}", "}}")
    slots = iter(("{order}", "{order2}"))
    return _ORDER.sub(lambda match: next(slots, match.group(0)), text)
