"""Knowledge documents on disk: `partitions/<partition>/partition.yaml` plus
`*.md` files with YAML front matter.

The partition file names the fields every document indexes; each document
must carry them. Documents are the project's own, versioned with the code.
"""

from __future__ import annotations

import hashlib
from datetime import date
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field

from skills import yaml_files
from skills.errors import KnowledgeConfigError
from skills.knowledge.tokenize import TOKENIZER_VERSION

PARTITION_FILE = "partition.yaml"
# Always indexed, whatever the partition declares.
BUILTIN_FIELDS = frozenset({"title", "body", "last_updated", "lang"})
_LANGS = frozenset({"en", "zh"})


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class KnowledgeDocument(_Frozen):
    """One document: front matter fields, body, and a hash of both."""

    partition: str
    slug: str
    title: str
    lang: str
    last_updated: date
    fields: dict[str, Any] = Field(default_factory=dict)
    body: str
    content_hash: str

    @property
    def keywords(self) -> tuple[str, ...]:
        raw = self.fields.get("keywords") or ()
        return tuple(str(k) for k in raw) if isinstance(raw, list) else (str(raw),)


class PartitionSpec(_Frozen):
    """A partition and its documents, as found on disk."""

    name: str
    description: str
    indexed_fields: tuple[str, ...]
    documents: tuple[KnowledgeDocument, ...]

    @property
    def last_updated(self) -> date:
        return max(d.last_updated for d in self.documents)


def load_knowledge(root: Path | str) -> tuple[PartitionSpec, ...]:
    """Every partition under `root`, sorted by name; KnowledgeConfigError if malformed."""
    folder = Path(root)
    if not folder.is_dir():
        raise KnowledgeConfigError(f"{folder}: knowledge root not found; fix the path")
    dirs = sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("_"))
    return tuple(load_partition(d) for d in dirs)


def load_partition(folder: Path) -> PartitionSpec:
    """One partition folder: its `partition.yaml` and every `*.md` document."""
    meta_path = folder / PARTITION_FILE
    if not meta_path.is_file():
        raise KnowledgeConfigError(f"{folder}: no {PARTITION_FILE}; declare the partition")
    meta = _yaml_mapping(meta_path, meta_path.read_text("utf-8"))
    if meta.get("partition") != folder.name:
        raise KnowledgeConfigError(f"{folder / PARTITION_FILE}: `partition` must be {folder.name}")
    fields = tuple(str(f) for f in meta.get("indexed_fields") or ())
    docs = tuple(_load_document(p, folder.name, fields) for p in sorted(folder.glob("*.md")))
    if not docs:
        raise KnowledgeConfigError(f"{folder}: partition has no documents; add a *.md file")
    return PartitionSpec(
        name=folder.name,
        description=str(meta.get("description", "")),
        indexed_fields=fields,
        documents=docs,
    )


def _load_document(path: Path, partition: str, indexed: tuple[str, ...]) -> KnowledgeDocument:
    text = path.read_text(encoding="utf-8")
    if not text.startswith("---\n") or "\n---\n" not in text[4:]:
        raise KnowledgeConfigError(f"{path}: missing YAML front matter between --- lines")
    head, body = text[4:].split("\n---\n", 1)
    meta = _yaml_mapping(path, head)
    for key in ("partition", "title", "last_updated", "lang", *indexed):
        if key not in meta:
            raise KnowledgeConfigError(f"{path}: front matter lacks {key!r}; add it")
    if meta["partition"] != partition:
        raise KnowledgeConfigError(f"{path}: front matter partition must be {partition!r}")
    if meta["lang"] not in _LANGS or not isinstance(meta["last_updated"], date):
        raise KnowledgeConfigError(f"{path}: lang must be en|zh and last_updated a YYYY-MM-DD date")
    digest = hashlib.sha256(f"{TOKENIZER_VERSION}\n{text}".encode()).hexdigest()
    extra = {k: _plain(v) for k, v in meta.items() if k not in ("partition", "title")}
    return KnowledgeDocument(
        partition=partition,
        slug=path.stem,
        title=str(meta["title"]),
        lang=str(meta["lang"]),
        last_updated=meta["last_updated"],
        fields=extra,
        body=body.strip(),
        content_hash=digest,
    )


def _yaml_mapping(path: Path, text: str) -> dict[str, Any]:
    try:
        data = yaml_files.safe_load(text)
    except yaml.YAMLError:
        raise KnowledgeConfigError(f"{path}: malformed YAML; fix the syntax") from None
    if not isinstance(data, dict):
        raise KnowledgeConfigError(f"{path}: expected a YAML mapping")
    return data


def _plain(value: Any) -> Any:
    # Dates become ISO strings so the fields survive the trip through jsonb.
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
