"""The skill registry: packages loaded explicitly from a catalog directory.

Nothing registers itself by being imported. `load_catalog` walks the catalog,
parses each `metadata.yaml`, imports each `executor.py` by file path and
refuses two patches of one major version of a skill, and an executor that
declares no result model (`output`, a pydantic model class). A package whose
metadata names an MCP tool is bound to the catalog's `mcp_servers.yaml` and its
tool checked on the server (skills/mcp, docs/mcp-skills.md).
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from pydantic import BaseModel, ValidationError

from skills import yaml_files
from skills.contract import RiskLevel, SkillExecutor, SkillMetadata
from skills.errors import SkillLoadError, SkillVersionConflict, UnknownSkill
from skills.mcp.config import SERVERS_FILE

if TYPE_CHECKING:
    from skills.mcp.connection import McpConnection
from skills.test_cases import case_files, load_case_file

_EXECUTOR_METHODS = ("validate_input", "execute", "rollback")


@dataclass(frozen=True)
class LoadedSkill:
    """A package ready to run: its metadata, its executor and where it came from."""

    metadata: SkillMetadata
    executor: SkillExecutor
    path: Path
    output: type[BaseModel]
    """The executor's result model, taken at load time: swapping the executor
    (tests, chaos) keeps the contract the package declared."""

    @property
    def skill_id(self) -> str:
        return self.metadata.skill_id


class SkillRegistry:
    """The loaded skills, by skill id; answers lookups and discovery queries."""

    def __init__(self, skills: Iterable[LoadedSkill]) -> None:
        self._skills: dict[str, LoadedSkill] = {}
        for skill in skills:
            if skill.skill_id in self._skills:
                raise SkillVersionConflict(skill.skill_id)
            self._skills[skill.skill_id] = skill
        self._check_replacements()

    def _check_replacements(self) -> None:
        for skill in self._skills.values():
            replacement = skill.metadata.replan_with
            if replacement is not None and replacement.skill not in self._skills:
                raise _load_error(
                    skill.path,
                    f"replan_with names unknown skill {replacement.skill!r}; "
                    "use a skill id of this catalog",
                )

    def __iter__(self) -> Iterator[LoadedSkill]:
        return iter(sorted(self._skills.values(), key=lambda s: s.skill_id))

    def __len__(self) -> int:
        return len(self._skills)

    def __contains__(self, skill_id: object) -> bool:
        return isinstance(skill_id, str) and self.lookup(skill_id) is not None

    @property
    def skill_ids(self) -> tuple[str, ...]:
        return tuple(sorted(self._skills))

    @property
    def versions(self) -> dict[str, str]:
        """The loaded version of every skill id, what role pins are checked against."""
        return {skill_id: s.metadata.version for skill_id, s in sorted(self._skills.items())}

    def lookup(self, skill_id: str) -> LoadedSkill | None:
        """By exact id, else by name without version suffix (highest major wins)."""
        if skill_id in self._skills:
            return self._skills[skill_id]
        named = [s for s in self._skills.values() if s.metadata.name == skill_id]
        return max(named, key=lambda s: s.metadata.major, default=None)

    def is_side_effect(self, skill_id: str) -> bool:
        """Whether calling the skill changes something; an unknown skill counts as
        a write, the safe answer for every check that asks."""
        skill = self.lookup(skill_id)
        return skill is None or skill.metadata.side_effect

    def get(self, skill_id: str) -> LoadedSkill:
        """Like `lookup`, but an unknown id raises `UnknownSkill`."""
        skill = self.lookup(skill_id)
        if skill is None:
            raise UnknownSkill(skill_id)
        return skill

    def find(
        self,
        capability: str | None = None,
        max_cost_usd: float | None = None,
        max_latency_ms: int | None = None,
        risk: RiskLevel | None = None,
        within: Iterable[str] | None = None,
    ) -> list[SkillMetadata]:
        """Skills matching every given filter (risk is an exact level; `within`
        limits the answer to those skill ids), fastest first, then cheapest."""
        allowed = None if within is None else frozenset(within)
        found = [
            s.metadata
            for s in self._skills.values()
            if (allowed is None or s.skill_id in allowed)
            and (capability is None or capability in s.metadata.capabilities)
            and (max_cost_usd is None or s.metadata.cost_estimate.usd <= max_cost_usd)
            and (max_latency_ms is None or s.metadata.cost_estimate.latency_ms <= max_latency_ms)
            and (risk is None or s.metadata.risk == risk)
        ]
        return sorted(
            found, key=lambda m: (m.cost_estimate.latency_ms, m.cost_estimate.usd, m.skill_id)
        )


def describe(skills: Iterable[SkillMetadata]) -> str:
    """One line per skill for a planner prompt: parameters, whether it changes
    data, and its declared cost (latency, tokens, dollars)."""
    return "\n".join(_describe_one(metadata) for metadata in skills)


def _describe_one(metadata: SkillMetadata) -> str:
    cost = metadata.cost_estimate
    spend = f"~{cost.latency_ms} ms, ${cost.usd:.4f}" + (
        f", {cost.tokens} tokens" if cost.tokens else ""
    )
    writes = " [changes data]" if metadata.side_effect else ""
    return f"- {metadata.skill_id}({', '.join(metadata.parameters)}){writes} ({spend})"


def load_catalog(path: Path | str) -> SkillRegistry:
    """Load every package (a sub-directory holding `metadata.yaml`) under `path`."""
    root = Path(path)
    if not root.is_dir():
        raise SkillLoadError(f"skill catalog {root} is not a directory; pass the catalog folder")
    packages = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
    servers = _connections(root) if (root / SERVERS_FILE).is_file() else {}
    registry = SkillRegistry(load_package(p, servers) for p in packages)
    if any(s.metadata.executor is not None for s in registry):
        from skills.mcp.binding import check_tools
        from skills.mcp.executor import McpExecutor

        check_tools(
            (s.path.name, s.executor, s.metadata)
            for s in registry
            if isinstance(s.executor, McpExecutor)
        )
    return registry


def _connections(catalog: Path) -> Mapping[str, McpConnection]:
    # Imported here: the MCP SDK costs a second to import, paid only by a catalog
    # with MCP servers.
    from skills.mcp.binding import connections

    return connections(catalog)


def load_package(
    package_dir: Path, servers: Mapping[str, McpConnection] | None = None
) -> LoadedSkill:
    """Load one package; any missing or invalid part is a `SkillLoadError` naming it.

    An MCP-backed package is bound to `servers` (by default its catalog's), without
    the tool check `load_catalog` makes."""
    metadata = _load_metadata(package_dir)
    for required in ("README.md", "executor.py"):
        if not (package_dir / required).is_file():
            raise _load_error(package_dir, f"{required} is missing")
    files = case_files(package_dir)
    if not files:
        raise _load_error(package_dir, "test_cases/*.json is missing (normal, boundary, malicious)")
    for case_file in files:
        load_case_file(case_file)
    declared = _load_executor(package_dir)
    executor: SkillExecutor
    if metadata.executor is not None:
        from skills.mcp.binding import bind

        known = _connections(package_dir.parent) if servers is None else servers
        executor = bind(package_dir.name, metadata, declared, known)
    else:
        _check_executor(package_dir, declared)
        executor = declared
    return LoadedSkill(metadata, executor, package_dir, executor.output)


def _load_metadata(package_dir: Path) -> SkillMetadata:
    path = package_dir / "metadata.yaml"
    if not path.is_file():
        raise _load_error(package_dir, "metadata.yaml is missing")
    try:
        raw = yaml_files.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise _load_error(package_dir, f"metadata.yaml is not valid YAML ({exc})") from exc
    if not isinstance(raw, dict):
        raise _load_error(package_dir, "metadata.yaml must be a mapping of fields")
    try:
        metadata = SkillMetadata.model_validate(raw)
    except ValidationError as exc:
        error = exc.errors()[0]
        field = ".".join(str(part) for part in error["loc"]) or "(root)"
        raise _load_error(package_dir, f"metadata field '{field}': {error['msg']}") from exc
    if metadata.skill_id.rsplit("_v", 1)[1] != str(metadata.major):
        raise _load_error(
            package_dir,
            f"metadata field 'version': {metadata.version} is not a patch of {metadata.skill_id}",
        )
    return metadata


def _load_executor(package_dir: Path) -> Any:
    path = package_dir / "executor.py"
    digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:12]
    module_name = f"rolegraph_skill_{package_dir.name}_{digest}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise _load_error(package_dir, "executor.py cannot be imported")
    module = importlib.util.module_from_spec(spec)
    # Registered before exec so dataclasses/pydantic in the executor can
    # resolve their own module; removed again if the import fails.
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(module_name, None)
        raise _load_error(package_dir, f"executor.py failed to import ({exc!r})") from exc
    executor = getattr(module, "EXECUTOR", None)
    if executor is None:
        raise _load_error(package_dir, "executor.py defines no module attribute EXECUTOR")
    return executor


def _check_executor(package_dir: Path, executor: Any) -> None:
    for name in _EXECUTOR_METHODS:
        if not callable(getattr(executor, name, None)):
            raise _load_error(package_dir, f"EXECUTOR has no method {name}")
    for name in ("execute", "rollback"):
        if not inspect.iscoroutinefunction(getattr(executor, name)):
            raise _load_error(package_dir, f"EXECUTOR.{name} must be async")
    output = getattr(executor, "output", None)
    if not (isinstance(output, type) and issubclass(output, BaseModel)):
        raise _load_error(
            package_dir,
            "EXECUTOR declares no result model; set EXECUTOR.output to a pydantic model",
        )


def _load_error(package_dir: Path, problem: str) -> SkillLoadError:
    return SkillLoadError(f"skill package {package_dir.name}: {problem}")
