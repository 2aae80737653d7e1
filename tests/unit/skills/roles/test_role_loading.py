"""load_roles: the real role files load; every start-up error names the file."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from roles_testkit import KNOWN_SKILLS, ROLES_DIR, VOCABULARY, role_data

from skills.errors import RoleConfigError
from skills.resources import Operation
from skills.roles import RoleSpec, load_roles

WriteRole = Callable[..., Path]


def test_real_role_files_load() -> None:
    roles = load_roles(ROLES_DIR, KNOWN_SKILLS, VOCABULARY)
    assert set(roles) == {
        "order_query",
        "logistics_analyst",
        "billing_specialist",
        "notifier",
        "summarizer",
        "customer_support_rep",
        "front_desk",
    }
    logistics = roles["logistics_analyst"]
    assert isinstance(logistics.execute, frozenset)
    assert "track_shipment_v1" in logistics.execute
    assert {"http_call", "send_notification_v1"} <= logistics.deny
    assert Operation("write", "db://orders") in logistics.denied_operations
    assert roles["summarizer"].read == frozenset()
    assert roles["notifier"].execute == {"send_notification_v1"}
    assert roles["customer_support_rep"].knowledge_partitions >= {"faq", "return_policy"}


def test_valid_role_parses(write_role: WriteRole, tmp_path: Path) -> None:
    write_role(role_data())
    role = load_roles(tmp_path, KNOWN_SKILLS, VOCABULARY)["reader"]
    assert isinstance(role, RoleSpec)
    assert role.read == {"db://orders"}
    binding = role.binding("get_order_details_v1")
    assert binding is not None and binding.required_context == ("user_id",)
    with pytest.raises(ValueError):
        role.model_copy().__setattr__("name", "other")  # frozen


def _perms(**perms: Any) -> dict[str, Any]:
    base = {"read": ["db://orders"], "execute": ["get_order_details_v1"], "deny": []}
    return {**base, **perms}


BROKEN: list[tuple[str, dict[str, Any], str]] = [
    (
        "unknown skill",
        role_data(permissions=_perms(execute=["get_order_details_v1", "teleport_v1"])),
        "unknown skill 'teleport_v1'",
    ),
    (
        "unknown resource",
        role_data(permissions=_perms(read=["db://orders", "db://payroll"])),
        "unknown resource 'db://payroll'",
    ),
    (
        "executed and denied",
        role_data(permissions=_perms(deny=["get_order_details_v1"])),
        "both executed and denied",
    ),
    (
        "binding not executed",
        role_data(
            skills=[
                {"skill_id": "get_order_details_v1", "version": "1.x"},
                {"skill_id": "calculate_v1", "version": "1.x"},
            ]
        ),
        "skills: lists 'calculate_v1' but permissions.execute does not",
    ),
    (
        "executed but not pinned",
        role_data(skills=[]),
        "no entry pinning its version",
    ),
    (
        "unknown denied operation",
        role_data(permissions=_perms(deny=["write:db://payroll"])),
        "unknown operation",
    ),
    (
        "unknown denied skill",
        role_data(permissions=_perms(deny=["send_email"])),
        "unknown skill 'send_email' in permissions.deny",
    ),
    (
        "bad version",
        role_data(skills=[{"skill_id": "get_order_details_v1", "version": "one"}]),
        "malformed version",
    ),
    (
        "version of another major",
        role_data(skills=[{"skill_id": "get_order_details_v1", "version": "2.x"}]),
        "is major 1",
    ),
    (
        "unknown context key",
        role_data(
            skills=[
                {
                    "skill_id": "get_order_details_v1",
                    "version": "1.x",
                    "required_context": ["password"],
                }
            ]
        ),
        "unknown context key 'password'",
    ),
    ("bad tier", role_data(model_tier="huge"), "model_tier"),
    ("unknown key (no inheritance)", role_data(inherits="order_query"), "inherits"),
    (
        "duplicate",
        role_data(permissions=_perms(read=["db://orders", "db://orders"])),
        "twice",
    ),
]


@pytest.mark.parametrize(("case", "data", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_startup_errors_name_file_and_problem(
    write_role: WriteRole, tmp_path: Path, case: str, data: dict[str, Any], message: str
) -> None:
    path = write_role(data)
    with pytest.raises(RoleConfigError) as info:
        load_roles(tmp_path, KNOWN_SKILLS, VOCABULARY)
    text = str(info.value)
    assert str(path) in text
    assert message in text
    assert "\n" not in text


def test_malformed_yaml(write_role: WriteRole, tmp_path: Path) -> None:
    path = write_role("name: broken\npermissions: [read: \n  - x\n", "broken.yaml")
    with pytest.raises(RoleConfigError, match="malformed YAML") as info:
        load_roles(tmp_path, KNOWN_SKILLS, VOCABULARY)
    assert str(path) in str(info.value)


def test_file_name_must_match_role_name(write_role: WriteRole, tmp_path: Path) -> None:
    write_role(role_data(name="reader"), "writer.yaml")
    with pytest.raises(RoleConfigError, match="does not match the file name"):
        load_roles(tmp_path, KNOWN_SKILLS, VOCABULARY)


def test_top_level_must_be_mapping(write_role: WriteRole, tmp_path: Path) -> None:
    write_role("- just\n- a list\n", "listy.yaml")
    with pytest.raises(RoleConfigError, match="expected a mapping"):
        load_roles(tmp_path, KNOWN_SKILLS, VOCABULARY)


def test_missing_or_empty_directory(tmp_path: Path) -> None:
    with pytest.raises(RoleConfigError, match="not found"):
        load_roles(tmp_path / "nope", KNOWN_SKILLS, VOCABULARY)
    with pytest.raises(RoleConfigError, match="no role files"):
        load_roles(tmp_path, KNOWN_SKILLS, VOCABULARY)


def test_matrix_file_is_not_a_role(write_role: WriteRole, tmp_path: Path) -> None:
    write_role(role_data())
    (tmp_path / "permission_matrix.yaml").write_text("roles: [reader]\n", encoding="utf-8")
    assert set(load_roles(tmp_path, KNOWN_SKILLS, VOCABULARY)) == {"reader"}


@pytest.mark.parametrize(
    ("pin", "loaded", "admitted"),
    [
        ("^1.2", "1.1.0", False),
        ("^1.2", "1.4.2", True),
        ("~1.2.0", "1.3.0", False),
        ("1.x", "1.9.0", True),
    ],
)
def test_a_version_pin_must_admit_the_loaded_version(
    write_role: WriteRole, tmp_path: Path, pin: str, loaded: str, admitted: bool
) -> None:
    path = write_role(role_data(skills=[{"skill_id": "get_order_details_v1", "version": pin}]))
    catalog = {**KNOWN_SKILLS, "get_order_details_v1": loaded}
    if admitted:
        assert load_roles(tmp_path, catalog, VOCABULARY)["reader"].binding("get_order_details_v1")
        return
    with pytest.raises(RoleConfigError) as info:
        load_roles(tmp_path, catalog, VOCABULARY)
    text = str(info.value)
    assert str(path) in text and "\n" not in text
    assert (
        f"role reader pins get_order_details_v1 to '{pin}' but the catalog holds {loaded}" in text
    )


def test_model_tier_is_validated_and_exposed(write_role: WriteRole, tmp_path: Path) -> None:
    write_role(role_data(model_tier="large"))
    assert load_roles(tmp_path, KNOWN_SKILLS, VOCABULARY)["reader"].model_tier == "large"
    real = load_roles(ROLES_DIR, KNOWN_SKILLS, VOCABULARY)
    assert {role.model_tier for role in real.values()} <= {"rules", "small", "large"}


def test_required_context_comes_from_the_binding(write_role: WriteRole, tmp_path: Path) -> None:
    write_role(role_data())
    role = load_roles(tmp_path, KNOWN_SKILLS, VOCABULARY)["reader"]
    assert role.required_context("get_order_details_v1") == ("user_id",)
    assert role.required_context("cancel_pending_order_v1") == ()


def test_domain_context_keys_come_from_the_vocabulary(tmp_path: Path) -> None:
    binding = {
        "skill_id": "get_order_details_v1",
        "version": "1.x",
        "required_context": ["order_id"],
    }
    (tmp_path / "reader.yaml").write_text(yaml.safe_dump(role_data(skills=[binding])))
    assert load_roles(tmp_path, KNOWN_SKILLS, VOCABULARY)["reader"].skills[0].required_context == (
        "order_id",
    )
    without = dataclasses.replace(VOCABULARY, context=frozenset())
    with pytest.raises(RoleConfigError, match="unknown context key 'order_id'"):
        load_roles(tmp_path, KNOWN_SKILLS, without)
