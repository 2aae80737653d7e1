"""check_permission_matrix: the hand-written matrix agrees with the role files."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from roles_testkit import KNOWN_SKILLS, ROLES_DIR, SKILL_OPERATIONS, VOCABULARY

from domains.retail import DOMAIN
from skills.errors import RoleConfigError
from skills.permission_matrix import check_permission_matrix, granted_operations, skill_operations
from skills.registry import load_catalog
from skills.resources import Operation
from skills.roles import load_roles

KNOWLEDGE_PARTITIONS = VOCABULARY.knowledge

MATRIX = ROLES_DIR / "permission_matrix.yaml"


@pytest.fixture
def roles_copy(tmp_path: Path) -> Path:
    target = tmp_path / "roles"
    shutil.copytree(ROLES_DIR, target)
    return target


def _set_cell(matrix: Path, operation: str, role_index: int, value: str) -> None:
    lines = matrix.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line.strip().startswith(f'"{operation}":'):
            head, cells = line.split("[", 1)
            values = [c.strip() for c in cells.rstrip("]").split(",")]
            values[role_index] = value
            lines[i] = f"{head}[{', '.join(values)}]"
    matrix.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _check(folder: Path) -> None:
    roles = load_roles(folder, KNOWN_SKILLS, VOCABULARY)
    check_permission_matrix(roles, folder / "permission_matrix.yaml", SKILL_OPERATIONS, VOCABULARY)


def test_real_roles_and_matrix_agree() -> None:
    roles = load_roles(ROLES_DIR, KNOWN_SKILLS, VOCABULARY)
    matrix = check_permission_matrix(roles, MATRIX, SKILL_OPERATIONS, VOCABULARY)
    assert set(matrix.roles) == set(roles)
    assert matrix.allows("billing_specialist", Operation("write", "db://orders"))
    assert not matrix.allows("logistics_analyst", Operation("write", "db://orders"))
    assert not any(matrix.allows(r, Operation("http_call")) for r in roles)


def test_matrix_deny_cell_that_yaml_grants_is_named(roles_copy: Path) -> None:
    # logistics_analyst is column 1; let its YAML grant cancel_pending_order_v1.
    path = roles_copy / "logistics_analyst.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("    - cancel_pending_order_v1\n", "", 1)  # from deny
    text = text.replace(
        "    - get_order_details_v1\n",
        "    - get_order_details_v1\n    - cancel_pending_order_v1\n",
        1,
    )
    text += '  - {skill_id: cancel_pending_order_v1, version: "1.x", required_context: []}\n'
    text = text.replace("    - write:db://orders\n", "")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RoleConfigError) as info:
        _check(roles_copy)
    assert str(info.value) == (
        "permission matrix says logistics_analyst may not 'write db://orders' but "
        "logistics_analyst.yaml grants it via cancel_pending_order_v1"
    )


def test_matrix_allow_cell_that_yaml_does_not_grant_is_named(roles_copy: Path) -> None:
    _set_cell(roles_copy / "permission_matrix.yaml", "read db://shipments", 4, "allow")
    with pytest.raises(RoleConfigError) as info:
        _check(roles_copy)
    assert str(info.value) == (
        "permission matrix says summarizer may 'read db://shipments' "
        "but summarizer.yaml does not grant it"
    )


def test_matrix_deny_of_a_read_permission_is_named(roles_copy: Path) -> None:
    _set_cell(roles_copy / "permission_matrix.yaml", "read kb://shipping_routes", 1, "deny")
    with pytest.raises(RoleConfigError, match=re.escape("via permissions.read")) as info:
        _check(roles_copy)
    assert "logistics_analyst may not 'read kb://shipping_routes'" in str(info.value)


def test_granting_a_denied_operation_is_an_error(roles_copy: Path) -> None:
    path = roles_copy / "summarizer.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("  read: []", "  read: [db://orders]"),
        encoding="utf-8",
    )
    _set_cell(roles_copy / "permission_matrix.yaml", "read db://orders", 4, "allow")
    with pytest.raises(RoleConfigError, match=r"grants 'read db://orders' .* but also denies it"):
        _check(roles_copy)


def test_skill_reading_an_unlisted_resource_is_an_error(roles_copy: Path) -> None:
    path = roles_copy / "logistics_analyst.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("    - db://orders\n", "", 1), encoding="utf-8"
    )
    with pytest.raises(RoleConfigError, match="get_order_details_v1 reads db://orders"):
        _check(roles_copy)


def test_every_cell_must_be_written(roles_copy: Path) -> None:
    matrix = roles_copy / "permission_matrix.yaml"
    matrix.write_text(
        matrix.read_text(encoding="utf-8").replace(
            '"http_call":                        [deny,   deny,    deny,    deny,   deny,   deny,   deny ]',
            '"http_call": [deny, deny]',
        ),
        encoding="utf-8",
    )
    with pytest.raises(RoleConfigError, match="row 'http_call' needs 7 cells"):
        _check(roles_copy)


def test_bad_cell_value_and_unknown_operation(roles_copy: Path) -> None:
    matrix = roles_copy / "permission_matrix.yaml"
    _set_cell(matrix, "http_call", 0, "maybe")
    with pytest.raises(RoleConfigError, match="cell must be allow or deny"):
        _check(roles_copy)
    _set_cell(matrix, "http_call", 0, "deny")
    matrix.write_text(
        matrix.read_text(encoding="utf-8")
        + '  "write db://payroll": [deny, deny, deny, deny, deny, deny]\n',
        encoding="utf-8",
    )
    with pytest.raises(RoleConfigError, match="unknown operation 'write db://payroll'"):
        _check(roles_copy)


def test_missing_row_for_a_granted_operation(roles_copy: Path) -> None:
    matrix = roles_copy / "permission_matrix.yaml"
    lines = [
        line
        for line in matrix.read_text(encoding="utf-8").splitlines()
        if '"read db://shipments"' not in line
    ]
    matrix.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(RoleConfigError, match="no row for it"):
        _check(roles_copy)


def test_role_without_column_and_column_without_role(roles_copy: Path) -> None:
    matrix = roles_copy / "permission_matrix.yaml"
    original = matrix.read_text(encoding="utf-8")
    matrix.write_text(original.replace("customer_support_rep,", "helpdesk,"), encoding="utf-8")
    with pytest.raises(RoleConfigError, match="role 'customer_support_rep' has no column"):
        _check(roles_copy)
    (roles_copy / "customer_support_rep.yaml").unlink()
    with pytest.raises(RoleConfigError, match="column 'helpdesk' names no role file"):
        _check(roles_copy)


def test_every_reference_skill_has_operations_and_partitions_exist() -> None:
    reads = {
        op.resource
        for ops in SKILL_OPERATIONS.values()
        for op in ops
        if op.resource and op.resource.startswith("kb://")
    }
    assert {r.removeprefix("kb://") for r in reads} <= KNOWLEDGE_PARTITIONS
    partitions_dir = Path(__file__).resolve().parents[4] / "domains" / "retail" / "knowledge"
    on_disk = {p.name for p in partitions_dir.iterdir() if p.is_dir()}
    assert on_disk == KNOWLEDGE_PARTITIONS


def test_granted_operations_names_sources() -> None:
    roles = load_roles(ROLES_DIR, KNOWN_SKILLS, VOCABULARY)
    granted = granted_operations(roles["notifier"], SKILL_OPERATIONS)
    assert granted == {
        Operation("execute", "tool://send_notification"): "send_notification_v1",
        Operation("write", "db://notifications"): "send_notification_v1",
    }


def test_skill_operations_come_from_metadata_and_are_checked_against_the_vocabulary() -> None:
    assert SKILL_OPERATIONS["cancel_pending_order_v1"] == {
        Operation("read", "db://orders"),
        Operation("write", "db://orders"),
    }
    assert SKILL_OPERATIONS["calculate_v1"] == frozenset()
    catalog = load_catalog(DOMAIN.catalog)
    cancel = catalog.get("cancel_pending_order_v1").metadata
    wrong = cancel.model_copy(update={"operations": ("write db://flights",)})
    with pytest.raises(RoleConfigError, match=r"cancel_pending_order_v1/metadata.yaml: operations"):
        skill_operations([wrong], VOCABULARY)
    bad_verb = cancel.model_copy(update={"operations": ("execute db://orders",)})
    with pytest.raises(RoleConfigError, match="allows only read/write"):
        skill_operations([bad_verb], VOCABULARY)
