"""The knowledge side of the permission → validation → knowledge triangle.

At load time, a skill bound to a role must be able to see every knowledge
partition it depends on, each partition must index the fields it reads, and
none may be older than the skill tolerates. Any failure is a `SkillLoadError`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Protocol

from checkpoints import knowledge
from skills.contract import KnowledgeDependency, SkillMetadata
from skills.errors import SkillLoadError
from skills.knowledge.documents import (
    BUILTIN_FIELDS,
    PartitionSpec,
    load_knowledge,
)
from skills.resources import kb_partitions

Clock = Callable[[], datetime]


class RoleView(Protocol):
    """What the knowledge check needs of a role."""

    @property
    def name(self) -> str: ...

    @property
    def read(self) -> frozenset[str]: ...


@dataclass(frozen=True)
class PartitionInfo:
    """A partition's indexed fields and freshness."""

    name: str
    indexed_fields: frozenset[str]
    last_updated: date


@dataclass(frozen=True)
class KnowledgeCatalog:
    """The partitions that exist, by name."""

    partitions: Mapping[str, PartitionInfo]

    @classmethod
    def from_specs(cls, specs: Iterable[PartitionSpec]) -> KnowledgeCatalog:
        infos = (
            PartitionInfo(s.name, BUILTIN_FIELDS | frozenset(s.indexed_fields), s.last_updated)
            for s in specs
        )
        return cls({i.name: i for i in infos})

    @classmethod
    def from_directory(cls, root: Path | str) -> KnowledgeCatalog:
        """The catalog of the files on disk (what `sync_knowledge` would load)."""
        return cls.from_specs(load_knowledge(root))


async def fetch_catalog(conn: knowledge.Conn) -> KnowledgeCatalog:
    """The catalog of what is synced into the database."""
    infos = (
        PartitionInfo(r.name, BUILTIN_FIELDS | frozenset(r.indexed_fields), r.last_updated)
        for r in await knowledge.partitions(conn)
    )
    return KnowledgeCatalog({i.name: i for i in infos})


def knowledge_check(
    metadata: SkillMetadata,
    role: RoleView,
    catalog: KnowledgeCatalog,
    *,
    now: datetime | None = None,
) -> None:
    """Raise `SkillLoadError` naming the first knowledge dependency `role` cannot satisfy."""
    today = (now or datetime.now(UTC)).date()
    visible = kb_partitions(role.read)
    for dep in metadata.knowledge_dependencies:
        problem = _problem(metadata.skill_id, dep, role.name, visible, catalog, today)
        if problem:
            raise SkillLoadError(f"SkillLoadError: {problem}")


def bind_knowledge_check(
    catalog: KnowledgeCatalog, clock: Clock | None = None
) -> Callable[[SkillMetadata, RoleView], None]:
    """`knowledge_check` as the `(metadata, role) -> None` callable the middleware takes."""

    def check(metadata: SkillMetadata, role: RoleView) -> None:
        knowledge_check(metadata, role, catalog, now=clock() if clock else None)

    return check


def _problem(
    skill: str,
    dep: KnowledgeDependency,
    role: str,
    visible: frozenset[str],
    catalog: KnowledgeCatalog,
    today: date,
) -> str | None:
    resource = f"kb://{dep.partition}"
    if dep.partition not in visible:
        return f"{skill} needs {resource}, not readable by role {role}"
    info = catalog.partitions.get(dep.partition)
    if info is None:
        return f"{skill} needs {resource}, which does not exist; add the partition and sync"
    missing = sorted(set(dep.required_fields) - info.indexed_fields)
    if missing:
        indexed = ", ".join(sorted(info.indexed_fields))
        return f"{skill} needs field {missing[0]!r} of {resource}, which indexes only {indexed}"
    age = (today - info.last_updated).days
    if dep.max_age_days is not None and age > dep.max_age_days:
        return (
            f"{skill} needs {resource} at most {dep.max_age_days} days old, but it was last "
            f"updated {info.last_updated.isoformat()} ({age} days ago); refresh it and sync"
        )
    return None
