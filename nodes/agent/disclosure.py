"""Progressive disclosure: a skill's full instructions enter an agent's context only
when the model loads them, at most `MAX_LOADED` at once, least recently used evicted."""

from __future__ import annotations

import re
from collections.abc import Sequence

from nodes.agent.tools import one_line
from skills.registry import LoadedSkill

MAX_LOADED = 3
MAX_DOC_CHARS = 4000
"""Characters of one skill's instructions a load brings in."""
DOC_FILE = "README.md"
"""The skill package's instructions (every package has one; `skills.registry`)."""


def used(loaded: Sequence[str], name: str, limit: int = MAX_LOADED) -> list[str]:
    """`loaded` (least recently used first) after loading or using `name`."""
    order = [n for n in loaded if n != name] + [name]
    return order[-limit:]


def touched(loaded: Sequence[str], name: str) -> list[str]:
    """`loaded` after a call of `name`: a loaded skill becomes the most recent; nothing loads."""
    return used(loaded, name, limit=len(loaded)) if name in loaded else list(loaded)


def loaded_line(name: str) -> str:
    """How the loop's stored step records a successful load of `name`: the prompt
    shows the instructions in its place (`nodes.agent.prompt.shown_loads`)."""
    return f"loaded the instructions of {name}"


def skill_doc(skill: LoadedSkill) -> str:
    """The skill package's instructions, cut to `MAX_DOC_CHARS`."""
    text = (skill.path / DOC_FILE).read_text(encoding="utf-8").strip()
    return text if len(text) <= MAX_DOC_CHARS else text[:MAX_DOC_CHARS] + "\n[cut]"


def loaded_doc(skill: LoadedSkill, session: frozenset[str]) -> str:
    """What a load shows: the package's instructions less what the prompt already says
    or the model must not use. That is the `# <skill id>` title (the load names the
    skill), the description's first sentence (the tool list's line) and the lines of
    parameters in `session` (the session fills them; the model never passes them)."""
    lines = skill_doc(skill).splitlines()
    if lines and lines[0].strip() == f"# {skill.skill_id}":
        lines = lines[1:]
    hidden = tuple(f"- `{name}` " for name in session)
    text = "\n".join(line for line in lines if not line.startswith(hidden)).strip()
    listed = one_line(skill.metadata.description)
    head, _, rest = text.partition("\n\n")
    if " ".join(head.split()).startswith(listed):
        text = f"{' '.join(head.split())[len(listed) :].strip()}\n\n{rest}".strip()
    return _EMPTY_SECTION.sub("", text)


_EMPTY_SECTION = re.compile(r"^## [^\n]*\n\s*(?=^## |\Z)", re.MULTILINE)
"""A section left with nothing in it (a parameters list of session parameters only)."""
