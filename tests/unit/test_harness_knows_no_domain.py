"""The harness names no domain (issue 8 §1): no skill id, intent, slot or table
of a domain pack appears in graphs/, nodes/, skills/, checkpoints/ or
rolegraph_cli/, and graphs/ and nodes/ do not name a pack at all.

The names come from the packs themselves (catalog folders, `Domain` intents
and slots, `CREATE TABLE` statements), so a new skill, intent or table is
covered without editing this test. Names with an underscore
(`cancel_pending_order_v1`, `order_ids`) are looked for in any text, prompts
and docstrings included; plain words (`notify`, `address`) only where code
names them (a one-word string literal, an attribute), not in prose; tables only where SQL or a `db://` resource
names them (`FROM orders`), since `orders` and `holds` are also English.
"""

from __future__ import annotations

import ast
import io
import re
import token
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from nodes.domain import OUT_OF_SCOPE, Domain, load_domain

ROOT = Path(__file__).resolve().parents[2]
HARNESS = ("graphs", "nodes", "skills", "checkpoints", "rolegraph_cli")
PACKS = ("retail", "library")
NAMED_NOWHERE = ("graphs", "nodes")
"""Packages in which even a pack's name may not appear."""
HARNESS_WORDS = frozenset({OUT_OF_SCOPE, "reason"})
"""Names a pack shares with the harness's own vocabulary: the out-of-scope
intent is the harness's, and approvals, rejections and refusals have reasons."""
ALLOWED = {
    # `rolegraph notify` is the harness's outbox command, not the notify intent.
    ("notify", "rolegraph_cli/notify_cmd.py"),
    ("notify", "rolegraph_cli/commands.py"),
    # ROLEGRAPH_DOMAIN's documented default.
    ("retail", "nodes/domain.py"),
    ("retail", "nodes/packs.py"),
}
_TABLE = re.compile(r"CREATE TABLE IF NOT EXISTS (\w+)", re.IGNORECASE)


@dataclass(frozen=True)
class Names:
    """What one pack names, by how it may show up in harness text."""

    words: frozenset[str]
    """Skill ids, intents and slots."""
    tables: frozenset[str]


def _names(domain: Domain) -> Names:
    skills = {p.name for p in domain.catalog.iterdir() if (p / "metadata.yaml").is_file()}
    sql = "\n".join(text for _, text in domain.migrations.files())
    slots = {s.name for s in domain.understanding.slots}
    words = (skills | slots | set(domain.intent_names)) - HARNESS_WORDS
    return Names(words=frozenset(words), tables=frozenset(_TABLE.findall(sql)))


def _word(name: str, *, flags: int = 0) -> re.Pattern[str]:
    return re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", flags)


def _patterns(names: Names, package: str) -> tuple[dict[str, re.Pattern[str]], frozenset[str]]:
    """(patterns looked for in any text, words looked for in code only)."""
    anywhere = {n: _word(n) for n in names.words if "_" in n}
    for table in names.tables:
        name = re.escape(table)
        sql = rf"\b(?:FROM|INTO|UPDATE|JOIN|TABLE|TRUNCATE)\s+{name}\b|db://{name}\b"
        anywhere[table] = re.compile(sql)  # SQL here is upper case; "the table holds" is prose
    if package in NAMED_NOWHERE:
        anywhere |= {p: _word(p, flags=re.IGNORECASE) for p in PACKS}
    code = frozenset(n for n in names.words if "_" not in n)
    return anywhere, code


def _harness_files() -> Iterator[Path]:
    for package in HARNESS:
        for path in sorted((ROOT / package).rglob("*")):
            if path.suffix in (".py", ".md", ".sql", ".yaml") and "__pycache__" not in path.parts:
                yield path


def _code_words(source: str) -> Iterator[tuple[int, str]]:
    """(line, name) of code that names something: a string literal that is
    exactly one word (`slots["address"]`, `"notify" in intents`) or an
    attribute (`slots.address`). Prose in strings, comments and docstrings is not."""
    previous = (token.NEWLINE, "")
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        prefix = re.match(r"[A-Za-z]*", tok.string)
        if tok.type == token.STRING and "f" not in (prefix.group() if prefix else "").lower():
            value = ast.literal_eval(tok.string)
            if isinstance(value, str) and re.fullmatch(r"[a-z_]+", value):
                yield tok.start[0], value
        elif tok.type == token.NAME and previous == (token.OP, "."):
            yield tok.start[0], tok.string
        if tok.type not in (token.COMMENT, token.NL):
            previous = (tok.type, tok.string)


def _hits(path: Path, names: Names) -> Iterator[str]:
    yield from _hits_in(path, names, path.relative_to(ROOT).as_posix())


def _hits_in(path: Path, names: Names, rel: str = "nodes/sample.py") -> Iterator[str]:
    text = path.read_text(encoding="utf-8")
    anywhere, code = _patterns(names, rel.split("/")[0])
    chunks = list(enumerate(text.splitlines(), 1))
    for lineno, line in chunks:
        for name, pattern in anywhere.items():
            if pattern.search(line) and (name, rel) not in ALLOWED:
                yield f"{rel}:{lineno}: {name}"
    if path.suffix != ".py":
        return
    for lineno, word in _code_words(text):
        if word in code and (word, rel) not in ALLOWED:
            yield f"{rel}:{lineno}: {word}"


def _all_names() -> Names:
    packs = [_names(load_domain(pack)) for pack in PACKS]
    return Names(
        words=frozenset().union(*(n.words for n in packs)),
        tables=frozenset().union(*(n.tables for n in packs)),
    )


def test_no_harness_file_names_a_domain() -> None:
    names = _all_names()
    found = sorted({hit for path in _harness_files() for hit in _hits(path, names)})
    assert not found, f"{len(found)} domain name(s) in the harness:\n" + "\n".join(found)


def test_the_scan_finds_what_it_looks_for(tmp_path: Path) -> None:
    # Without this, a scanner that matched nothing would pass the test above.
    names = _all_names()
    assert {"cancel_pending_order_v1", "waive_fine_v1", "order_ids", "notify"} <= names.words
    assert {"orders", "loans"} <= names.tables and OUT_OF_SCOPE not in names.words
    source = (
        '"""Orders and their address are documented here."""\n'
        'address = "x"  # notify\n'
        'rows = "SELECT * FROM loans"\n'
        'if "notify" in intents and slots.address:\n'
        '    hint = "write the address as street, city"\n'
    )
    sample = tmp_path / "sample.py"
    sample.write_text(source, encoding="utf-8")
    hits = [h.split(": ", 1)[1] for h in _hits_in(sample, names)]
    assert sorted(hits) == ["address", "loans", "notify"]
