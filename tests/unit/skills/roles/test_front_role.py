"""The front role (`front: true`): the react mode's one agent; at most one per domain."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from roles_testkit import KNOWN_SKILLS, VOCABULARY, role_data

from nodes.bootstrap import load_static_config
from nodes.domain import load_domain
from skills.errors import RoleConfigError
from skills.roles import front_role, load_roles

WriteRole = Callable[..., Path]


def test_each_pack_declares_one_front_role_holding_its_customer_writes() -> None:
    for pack, name in (("retail", "front_desk"), ("library", "circulation_desk")):
        registry, roles = load_static_config(load_domain(pack))
        front = front_role(roles)
        assert front is not None and front.name == name
        assert front.model_tier != "rules"
        assert any(registry.is_side_effect(s) for s in front.execute), pack
        assert "http_call" in front.deny


def test_retail_front_desk_covers_the_golden_paths_and_sends_nothing() -> None:
    _, roles = load_static_config(load_domain("retail"))
    front = roles["front_desk"]
    assert {"get_order_details_v1", "track_shipment_v1", "cancel_pending_order_v1"} <= front.execute
    assert "send_notification_v1" in front.deny
    assert [r.name for r in roles.values() if r.front] == ["front_desk"]


def test_no_front_role_by_default(write_role: WriteRole, tmp_path: Path) -> None:
    write_role(role_data())
    roles = load_roles(tmp_path, KNOWN_SKILLS, VOCABULARY)
    assert not roles["reader"].front and front_role(roles) is None


def test_two_front_roles_are_a_start_up_error_naming_the_files(
    write_role: WriteRole, tmp_path: Path
) -> None:
    write_role(role_data(name="desk_a", front=True, model_tier="small"))
    write_role(role_data(name="desk_b", front=True, model_tier="large"))
    with pytest.raises(RoleConfigError) as info:
        load_roles(tmp_path, KNOWN_SKILLS, VOCABULARY)
    message = str(info.value)
    assert "desk_a.yaml" in message and "desk_b.yaml" in message
    assert "front: true" in message and "\n" not in message


def test_front_must_be_a_boolean(write_role: WriteRole, tmp_path: Path) -> None:
    write_role(role_data(front="maybe"))
    with pytest.raises(RoleConfigError, match=r"reader\.yaml: front"):
        load_roles(tmp_path, KNOWN_SKILLS, VOCABULARY)


def test_a_front_role_needs_a_model_tier(write_role: WriteRole, tmp_path: Path) -> None:
    write_role(role_data(front=True))
    with pytest.raises(RoleConfigError) as info:
        load_roles(tmp_path, KNOWN_SKILLS, VOCABULARY)
    assert str(info.value) == (
        f"{tmp_path / 'reader.yaml'}: front: true needs a model: set model_tier to small or large"
    )
