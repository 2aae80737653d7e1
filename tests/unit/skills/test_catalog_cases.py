"""Every `test_cases/*.json` case of every package in the real catalog goes
through its executor's `validate_input` (format: domains/retail/catalog/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skills.errors import SkillValidationError
from skills.registry import SkillRegistry, load_catalog
from skills.test_cases import SkillTestCase, case_files, load_case_file

CATALOG = Path(__file__).resolve().parents[3] / "domains" / "retail" / "catalog"


def _collect() -> list[object]:
    packages = sorted(p for p in CATALOG.iterdir() if (p / "metadata.yaml").is_file())
    params: list[object] = []
    for package in packages:
        for case_file in case_files(package):
            for case in load_case_file(case_file).cases:
                case_id = f"{package.name}/{case_file.stem}/{case.name}"
                params.append(pytest.param(package.name, case, id=case_id))
    if not params:
        return [pytest.param(None, None, marks=pytest.mark.skip(reason="catalog has no packages"))]
    return params


@pytest.fixture(scope="module")
def registry() -> SkillRegistry:
    return load_catalog(CATALOG)


@pytest.mark.parametrize(("package", "case"), _collect())
def test_case_is_accepted_or_rejected_as_declared(
    registry: SkillRegistry, package: str, case: SkillTestCase
) -> None:
    skill = next(s for s in registry if s.path.name == package)
    if case.expect == "valid":
        normalised = skill.executor.validate_input(case.args)
        assert isinstance(normalised, dict)
    else:
        with pytest.raises(SkillValidationError):
            skill.executor.validate_input(case.args)
