from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from chain_helpers import FIXTURES, Role

from skills.context import RuntimeContext
from skills.errors import SkillLoadError, SkillVersionConflict, UnknownSkill
from skills.registry import SkillRegistry, describe, load_catalog
from skills.runtime import SkillRuntime


def _copy_echo(tmp_path: Path) -> Path:
    target = tmp_path / "catalog" / "echo"
    shutil.copytree(FIXTURES / "skill_catalog" / "echo", target)
    return target


def test_two_patches_of_one_major_are_refused() -> None:
    with pytest.raises(SkillVersionConflict) as info:
        load_catalog(FIXTURES / "skill_conflict_catalog")
    assert (
        str(info.value)
        == "SkillVersionConflict: Multiple patches for send_notification_v1 detected"
    )


def test_missing_metadata_field_names_package_and_field(tmp_path: Path) -> None:
    package = _copy_echo(tmp_path)
    meta = package / "metadata.yaml"
    meta.write_text(meta.read_text().replace("risk: low\n", ""))
    with pytest.raises(SkillLoadError, match=r"skill package echo: metadata field 'risk'"):
        load_catalog(package.parent)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("version: 1.0.0", "version: 2.0.0", "field 'version': 2.0.0 is not a patch of echo_v1"),
        ("skill_id: echo_v1", "skill_id: Echo", "field 'skill_id'"),
        ("latency_ms: 5", "latency_ms: 0", "field 'cost_estimate.latency_ms'"),
        ("risk: low", "risk: low\ncolour: blue", "field 'colour'"),
    ],
)
def test_invalid_metadata_is_a_load_error(tmp_path: Path, old: str, new: str, message: str) -> None:
    package = _copy_echo(tmp_path)
    meta = package / "metadata.yaml"
    meta.write_text(meta.read_text().replace(old, new))
    with pytest.raises(SkillLoadError, match=message):
        load_catalog(package.parent)


@pytest.mark.parametrize(
    ("breakage", "message"),
    [
        (lambda p: (p / "metadata.yaml").unlink(), "metadata.yaml is missing"),
        (lambda p: (p / "README.md").unlink(), "README.md is missing"),
        (lambda p: shutil.rmtree(p / "test_cases"), "test_cases"),
        (lambda p: (p / "executor.py").write_text("X = 1\n"), "no module attribute EXECUTOR"),
        (lambda p: (p / "executor.py").write_text("import nope_nope\n"), "failed to import"),
        (
            lambda p: (p / "executor.py").write_text(
                (p / "executor.py").read_text().replace("    output = Echoed\n", "")
            ),
            "EXECUTOR declares no result model",
        ),
        (
            lambda p: (p / "executor.py").write_text(
                (p / "executor.py").read_text().replace("output = Echoed", "output = dict")
            ),
            "EXECUTOR declares no result model",
        ),
        (
            lambda p: (p / "test_cases" / "cases.json").write_text('{"cases": [{"name": 1}]}'),
            "test case file cases.json is invalid",
        ),
    ],
)
def test_broken_package_parts_are_load_errors(tmp_path: Path, breakage, message: str) -> None:  # type: ignore[no-untyped-def]
    package = _copy_echo(tmp_path)
    breakage(package)
    with pytest.raises(SkillLoadError, match=message):
        load_catalog(package.parent)


def test_executor_is_loaded_by_path_not_by_import_side_effect(registry: SkillRegistry) -> None:
    skill = registry.get("echo_v1")
    assert skill.executor.validate_input({"text": " hi "}) == {"text": "hi"}
    # A second load is a fresh module, so executor state never leaks between registries.
    again = load_catalog(FIXTURES / "skill_catalog").get("echo_v1")
    assert again.executor is not skill.executor


def test_get_accepts_name_without_version_suffix(registry: SkillRegistry) -> None:
    assert registry.get("send_notification").skill_id == "send_notification_v1"
    assert "echo" in registry and "echo_v1" in registry
    with pytest.raises(UnknownSkill):
        registry.get("echo_v2")


def test_find_filters_and_sorts_by_latency_then_cost(registry: SkillRegistry) -> None:
    lookups = registry.find(capability="lookup")
    assert [m.skill_id for m in lookups] == ["cached_lookup_v1", "primary_lookup_v1"]
    cheap_fast = registry.find(max_latency_ms=20, max_cost_usd=0.0)
    latencies = [m.cost_estimate.latency_ms for m in cheap_fast]
    assert latencies == sorted(latencies) and all(lat <= 20 for lat in latencies)
    assert "scripted_v1" not in {m.skill_id for m in cheap_fast}  # costs 0.001
    assert [m.skill_id for m in registry.find(risk="forbidden")] == ["drop_everything_v1"]
    ties = registry.find(max_latency_ms=20)
    assert [m.skill_id for m in ties if m.cost_estimate.latency_ms == 20] == [
        "slow_v1",
        "scripted_v1",
    ]


def test_the_loaded_skill_keeps_the_executors_result_model(registry: SkillRegistry) -> None:
    skill = registry.get("echo_v1")
    assert skill.output is skill.executor.output
    assert skill.output.__name__ == "Echoed"
    assert registry.versions["echo_v1"] == "1.0.0"


def test_discovery_answers_within_a_roles_skills_and_declared_cost(
    registry: SkillRegistry,
) -> None:
    runtime = SkillRuntime(registry, {}, RuntimeContext(pool=None))
    role = Role(
        "finder",
        frozenset({"echo_v1", "scripted_v1", "cached_lookup_v1", "send_notification_v1"}),
        deny=frozenset({"send_notification"}),
    )
    found = [m.skill_id for m in runtime.discover(role)]
    assert found == ["cached_lookup_v1", "echo_v1", "scripted_v1"]  # fastest first, denied out
    free = runtime.discover(role, max_cost_usd=0.0)
    assert [m.skill_id for m in free] == ["cached_lookup_v1", "echo_v1"]  # scripted costs 0.001
    assert [m.skill_id for m in runtime.discover(role, max_latency_ms=4)] == ["cached_lookup_v1"]
    assert runtime.discover(role, capability="lookup", max_cost_usd=0.0)[0].skill_id == (
        "cached_lookup_v1"
    )


def test_describe_lists_each_skill_with_its_declared_cost(registry: SkillRegistry) -> None:
    lines = describe(registry.find(within=["scripted_v1", "send_notification_v1"])).splitlines()
    assert lines == [
        "- scripted_v1(label) (~20 ms, $0.0010)",
        "- send_notification_v1(recipient, message) [changes data] (~100 ms, $0.0020)",
    ]
