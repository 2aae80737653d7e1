"""The hand-written permission matrix (roles x operations), cross-checked
against the role files at start-up so the two can never drift apart.

A domain's `roles/permission_matrix.yaml` is a grid: `roles` names the columns, each
row under `operations` is an operation with one `allow`/`deny` per role. What
each skill does comes from its own `metadata.yaml` (`operations:`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from skills import yaml_files
from skills.contract import SkillMetadata
from skills.errors import RoleConfigError
from skills.resources import Operation, ResourceVocabulary, parse_operation
from skills.roles import RoleSpec

_READ_SOURCE = "permissions.read"


@dataclass(frozen=True)
class PermissionMatrix:
    """Parsed matrix: the allowed operations of each role, plus all rows."""

    roles: tuple[str, ...]
    operations: tuple[Operation, ...]
    allowed: Mapping[str, frozenset[Operation]]

    def allows(self, role: str, operation: Operation) -> bool:
        """Whether the matrix's cell for `role` and `operation` says allow."""
        return operation in self.allowed.get(role, frozenset())


def skill_operations(
    skills: Iterable[SkillMetadata], vocabulary: ResourceVocabulary
) -> dict[str, frozenset[Operation]]:
    """Each skill's declared `operations:`, parsed against the domain's vocabulary."""
    table: dict[str, frozenset[Operation]] = {}
    for meta in skills:
        try:
            table[meta.skill_id] = frozenset(
                parse_operation(t, vocabulary) for t in meta.operations
            )
        except ValueError as exc:
            raise RoleConfigError(
                f"{meta.skill_id}/metadata.yaml: operations: {exc}; fix the skill's operations"
            ) from None
    return table


def granted_operations(
    role: RoleSpec, skill_operations: Mapping[str, frozenset[Operation]]
) -> dict[Operation, str]:
    """Every operation the role's file grants, mapped to what grants it."""
    granted = {Operation("read", r): _READ_SOURCE for r in sorted(role.read)}
    for skill in sorted(role.execute):
        for op in sorted(skill_operations.get(skill, frozenset())):
            granted.setdefault(op, skill)
    return granted


def check_permission_matrix(
    roles: Mapping[str, RoleSpec],
    matrix_path: Path | str,
    skill_operations: Mapping[str, frozenset[Operation]],
    vocabulary: ResourceVocabulary,
) -> PermissionMatrix:
    """Parse the matrix and raise `RoleConfigError` on the first disagreement."""
    path = Path(matrix_path)
    matrix = load_permission_matrix(path, vocabulary)
    missing = sorted(set(roles) - set(matrix.roles))
    if missing:
        raise RoleConfigError(f"{path}: role {missing[0]!r} has no column; add it to `roles`")
    extra = sorted(set(matrix.roles) - set(roles))
    if extra:
        raise RoleConfigError(f"{path}: column {extra[0]!r} names no role file; remove it")
    for role in roles.values():
        problem = _role_problem(role, matrix, skill_operations)
        if problem:
            raise RoleConfigError(problem)
    return matrix


def load_permission_matrix(path: Path, vocabulary: ResourceVocabulary) -> PermissionMatrix:
    """Parse the grid; every cell must be written out as allow or deny."""
    data = _read(path)
    roles = data.get("roles")
    rows = data.get("operations")
    if not isinstance(roles, list) or not isinstance(rows, dict) or not roles:
        raise RoleConfigError(f"{path}: expected `roles: [...]` and `operations: {{op: [...]}}`")
    allowed: dict[str, set[Operation]] = {str(r): set() for r in roles}
    operations: list[Operation] = []
    for text, cells in rows.items():
        op = _parse_row_operation(path, str(text), vocabulary)
        if not isinstance(cells, list) or len(cells) != len(roles):
            raise RoleConfigError(f"{path}: row {text!r} needs {len(roles)} cells, one per role")
        for role, cell in zip(roles, cells, strict=True):
            if cell not in ("allow", "deny"):
                raise RoleConfigError(f"{path}: row {text!r}, {role}: cell must be allow or deny")
            if cell == "allow":
                allowed[str(role)].add(op)
        operations.append(op)
    frozen = {name: frozenset(ops) for name, ops in allowed.items()}
    return PermissionMatrix(tuple(str(r) for r in roles), tuple(operations), frozen)


def _role_problem(
    role: RoleSpec, matrix: PermissionMatrix, skill_operations: Mapping[str, frozenset[Operation]]
) -> str | None:
    name, file = role.name, f"{role.name}.yaml"
    unmapped = sorted(role.execute - set(skill_operations))
    if unmapped:
        return (
            f"{file}: skill {unmapped[0]!r} is not in the catalog; no operations are known for it"
        )
    granted = granted_operations(role, skill_operations)
    for op, source in granted.items():
        via = "via permissions.read" if source == _READ_SOURCE else f"via {source}"
        if op not in matrix.operations:
            return f"{file} grants '{op}' {via}, but the permission matrix has no row for it"
        if not matrix.allows(name, op):
            return f"permission matrix says {name} may not '{op}' but {file} grants it {via}"
        if op in role.denied_operations:
            return f"{file} grants '{op}' {via} but also denies it"
        if op.verb == "read" and op.resource not in role.read and source != _READ_SOURCE:
            return f"{file}: {source} reads {op.resource}, which permissions.read does not list"
    for op in matrix.operations:
        if matrix.allows(name, op) and op not in granted:
            return f"permission matrix says {name} may '{op}' but {file} does not grant it"
    return None


def _parse_row_operation(path: Path, text: str, vocabulary: ResourceVocabulary) -> Operation:
    try:
        return parse_operation(text, vocabulary)
    except ValueError as exc:
        raise RoleConfigError(f"{path}: {exc}") from None


def _read(path: Path) -> dict[str, Any]:
    try:
        data = yaml_files.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RoleConfigError(f"{path}: permission matrix not found; write it") from None
    except yaml.YAMLError as exc:
        raise RoleConfigError(f"{path}: malformed YAML: {exc}".splitlines()[0]) from None
    if not isinstance(data, dict):
        raise RoleConfigError(f"{path}: expected a mapping with `roles` and `operations`")
    return data
