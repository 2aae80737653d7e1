"""The library catalog in the harness's package format: it loads, and every
`test_cases/*.json` case is accepted or rejected by `validate_input` as declared."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from domains.library.pack import DOMAIN as LIBRARY
from skills.errors import SkillValidationError
from skills.registry import SkillRegistry, load_catalog
from skills.test_cases import SkillTestCase, case_files, load_case_file


def _cases() -> list[object]:
    params: list[object] = []
    for package in sorted(p for p in LIBRARY.catalog.iterdir() if p.is_dir()):
        for case_file in case_files(package):
            for case in load_case_file(case_file).cases:
                params.append(pytest.param(package.name, case, id=f"{package.name}/{case.name}"))
    return params


@pytest.fixture(scope="module")
def registry() -> SkillRegistry:
    return load_catalog(LIBRARY.catalog)


def test_the_catalog_holds_reads_a_high_risk_write_and_a_notification(
    registry: SkillRegistry,
) -> None:
    risks = {s.skill_id: (s.metadata.risk, s.metadata.side_effect) for s in registry}
    assert risks == {
        "get_book_v1": ("low", False),
        "get_member_loans_v1": ("low", False),
        "renew_loan_v1": ("medium", True),
        "search_policy_v1": ("low", False),
        "send_notification_v1": ("medium", True),
        "waive_fine_v1": ("high", True),
    }
    assert registry.find(capability="notification")[0].skill_id == "send_notification_v1"


def test_every_skill_declares_its_result_model(registry: SkillRegistry) -> None:
    for skill in registry:
        output = getattr(skill.executor, "output", None)
        assert isinstance(output, type) and issubclass(output, BaseModel), skill.skill_id


@pytest.mark.parametrize(("package", "case"), _cases())
def test_case_is_accepted_or_rejected_as_declared(
    registry: SkillRegistry, package: str, case: SkillTestCase
) -> None:
    executor = registry.get(package).executor
    if case.expect == "valid":
        assert isinstance(executor.validate_input(case.args), dict)
    else:
        with pytest.raises(SkillValidationError):
            executor.validate_input(case.args)
