"""Roles are data: a domain's `roles/<role>.yaml` parsed into a frozen `RoleSpec`.

No inheritance: every permission is written out in the role's own file, and
every inconsistency is a start-up `RoleConfigError` naming the file.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from skills import yaml_files
from skills.errors import RoleConfigError
from skills.resources import (
    Operation,
    ResourceVocabulary,
    kb_partitions,
    looks_like_operation,
    operation_of,
    parse_operation,
)
from skills.versions import parse_version_spec

Tier = Literal["rules", "small", "large"]
"""Who reads or plans: the rules tier or a model of that size (`nodes.contracts.Tier` too)."""
MATRIX_FILE = "permission_matrix.yaml"
CONTEXT_KEYS = frozenset({"user_id", "thread_id", "locale", "audit_id"})
"""Context keys every domain has; a domain adds its own (`ResourceVocabulary.context`)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SkillBinding(_Frozen):
    """A skill a role may call, pinned to a version range, with the context it needs."""

    skill_id: str
    version: str
    required_context: tuple[str, ...] = ()


class RolePermissions(_Frozen):
    read: tuple[str, ...] = ()
    execute: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()


class RoleSpec(_Frozen):
    """One role as declared in its YAML file."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    description: str = Field(min_length=1)
    model_tier: Tier
    """Where the role agent's model ladder starts (`rules`: the role runs planned calls only)."""
    front: bool = False
    """The customer-facing role: the one agent of the `react` mode runs its whitelist.
    At most one role of a domain is the front role."""
    permissions: RolePermissions
    skills: tuple[SkillBinding, ...] = ()

    @property
    def execute(self) -> frozenset[str]:
        """Skill ids the role may call."""
        return frozenset(self.permissions.execute)

    @property
    def deny(self) -> frozenset[str]:
        """Denied skill ids and operations, exactly as written."""
        return frozenset(self.permissions.deny)

    @property
    def read(self) -> frozenset[str]:
        """Resources the role may read (`db://<table>`, `kb://<partition>`, ...)."""
        return frozenset(self.permissions.read)

    @property
    def denied_operations(self) -> frozenset[Operation]:
        """Operations in the deny list (checked against the vocabulary at load time)."""
        return frozenset(operation_of(d) for d in self.deny if looks_like_operation(d))

    @property
    def knowledge_partitions(self) -> frozenset[str]:
        """The knowledge partitions this role may search."""
        return kb_partitions(self.read)

    def binding(self, skill_id: str) -> SkillBinding | None:
        return next((b for b in self.skills if b.skill_id == skill_id), None)

    def required_context(self, skill_id: str) -> tuple[str, ...]:
        """Context keys a call of `skill_id` must carry (checked at call time)."""
        binding = self.binding(skill_id)
        return binding.required_context if binding else ()


def load_roles(
    directory: Path | str, known_skills: Mapping[str, str], vocabulary: ResourceVocabulary
) -> dict[str, RoleSpec]:
    """Load and check every `*.yaml` role file in `directory` (the matrix file
    excepted); `known_skills` maps each catalog skill id to its loaded version,
    which every version pin must admit."""
    folder = Path(directory)
    if not folder.is_dir():
        raise RoleConfigError(f"{folder}: roles directory not found; create it or fix the path")
    known = dict(known_skills)
    roles: dict[str, RoleSpec] = {}
    for path in sorted(folder.glob("*.yaml")):
        if path.name != MATRIX_FILE:
            role = load_role_file(path, known, vocabulary)
            roles[role.name] = role
    if not roles:
        raise RoleConfigError(f"{folder}: no role files (*.yaml) found; add at least one role")
    _check_one_front(folder, roles)
    return roles


def front_role(roles: Mapping[str, RoleSpec]) -> RoleSpec | None:
    """The domain's customer-facing role (`front: true`), if it declares one."""
    return next((r for r in roles.values() if r.front), None)


def _check_one_front(folder: Path, roles: Mapping[str, RoleSpec]) -> None:
    fronts = sorted(name for name, role in roles.items() if role.front)
    if len(fronts) > 1:
        files = ", ".join(str(folder / f"{name}.yaml") for name in fronts)
        raise RoleConfigError(
            f"{files}: more than one role sets front: true; keep it on one role only"
        )


def load_role_file(
    path: Path, known_skills: Mapping[str, str], vocabulary: ResourceVocabulary
) -> RoleSpec:
    """Parse and check one role file."""
    data = _read_yaml(path)
    try:
        role = RoleSpec.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "file"
        raise RoleConfigError(f"{path}: {where}: {err['msg']}; fix the role file") from None
    problem = _first_problem(role, path, known_skills, vocabulary)
    if problem:
        raise RoleConfigError(f"{path}: {problem}")
    return role


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        data = yaml_files.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" at line {mark.line + 1}" if mark is not None else ""
        reason = getattr(exc, "problem", None) or "cannot parse"
        raise RoleConfigError(f"{path}: malformed YAML{line}: {reason}; fix the syntax") from None
    if not isinstance(data, dict):
        raise RoleConfigError(f"{path}: malformed role file: expected a mapping at top level")
    return data


def _first_problem(
    role: RoleSpec, path: Path, known: Mapping[str, str], vocabulary: ResourceVocabulary
) -> str | None:
    checks = (
        _check_name(role, path),
        _check_front(role),
        _check_duplicates(role),
        _check_read(role, vocabulary),
        _check_execute(role, known),
        _check_deny(role, known, vocabulary),
        _check_bindings(role, known, CONTEXT_KEYS | vocabulary.context),
    )
    return next((c for c in checks if c), None)


def _check_name(role: RoleSpec, path: Path) -> str | None:
    if role.name != path.stem:
        return f"role name {role.name!r} does not match the file name; rename one of them"
    return None


def _check_front(role: RoleSpec) -> str | None:
    if role.front and role.model_tier == "rules":
        return "front: true needs a model: set model_tier to small or large"
    return None


def _check_duplicates(role: RoleSpec) -> str | None:
    lists = {
        "permissions.read": role.permissions.read,
        "permissions.execute": role.permissions.execute,
        "permissions.deny": role.permissions.deny,
        "skills": tuple(b.skill_id for b in role.skills),
    }
    for where, items in lists.items():
        twice = [item for item, n in Counter(items).items() if n > 1]
        if twice:
            return f"{where} lists {twice[0]!r} twice; remove the duplicate"
    return None


def _check_read(role: RoleSpec, vocabulary: ResourceVocabulary) -> str | None:
    for resource in role.permissions.read:
        if resource not in vocabulary.all:
            known = ", ".join(sorted(vocabulary.all))
            return f"unknown resource {resource!r} in permissions.read; known: {known}"
    return None


def _check_execute(role: RoleSpec, known: Mapping[str, str]) -> str | None:
    for skill in role.permissions.execute:
        if skill not in known:
            return f"unknown skill {skill!r} in permissions.execute; no such skill is registered"
    for skill in role.permissions.execute:
        if skill in role.deny:
            return f"skill {skill!r} is both executed and denied; keep it in one list only"
    return None


def _check_deny(
    role: RoleSpec, known: Mapping[str, str], vocabulary: ResourceVocabulary
) -> str | None:
    for entry in role.permissions.deny:
        if looks_like_operation(entry):
            try:
                parse_operation(entry, vocabulary)
            except ValueError as exc:
                return f"permissions.deny: {exc}"
        elif entry not in known:
            return f"unknown skill {entry!r} in permissions.deny; no such skill is registered"
    return None


def _check_bindings(
    role: RoleSpec, known: Mapping[str, str], context_keys: frozenset[str]
) -> str | None:
    bound = {b.skill_id for b in role.skills}
    for binding in role.skills:
        problem = _check_binding(role, binding, known.get(binding.skill_id), context_keys)
        if problem:
            return problem
    for skill in role.permissions.execute:
        if skill not in bound:
            return (
                f"permissions.execute lists {skill!r} but skills: has no entry pinning its version"
            )
    return None


def _check_binding(
    role: RoleSpec, binding: SkillBinding, loaded: str | None, context_keys: frozenset[str]
) -> str | None:
    skill = binding.skill_id
    if skill not in role.execute:
        return f"skills: lists {skill!r} but permissions.execute does not; add it or remove it"
    try:
        spec = parse_version_spec(binding.version)
    except ValueError as exc:
        return f"skills: {skill}: {exc}"
    id_major = skill.rsplit("_v", 1)[-1]
    if id_major.isdigit() and spec.major != int(id_major):
        return f"skills: {skill} is major {id_major} but its version is pinned to {spec.text!r}"
    if loaded is not None and not spec.matches(loaded):
        return (
            f"role {role.name} pins {skill} to {spec.text!r} but the catalog holds {loaded};"
            " change the pin or load a matching version"
        )
    unknown = sorted(set(binding.required_context) - context_keys)
    if unknown:
        keys = ", ".join(sorted(context_keys))
        return f"skills: {skill}: unknown context key {unknown[0]!r}; known: {keys}"
    return None
