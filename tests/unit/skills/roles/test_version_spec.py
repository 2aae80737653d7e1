"""Version constraints used in role files."""

from __future__ import annotations

import pytest

from skills.versions import parse_version_spec


@pytest.mark.parametrize(
    ("spec", "inside", "outside"),
    [
        ("1.x", ["1.0.0", "1.9.3"], ["0.9.9", "2.0.0"]),
        ("1.2.x", ["1.2.0", "1.2.9"], ["1.3.0", "1.1.9"]),
        ("1.2.3", ["1.2.3"], ["1.2.4", "1.2.2"]),
        ("^1.2.0", ["1.2.0", "1.9.0"], ["1.1.9", "2.0.0"]),
        ("~1.2.0", ["1.2.0", "1.2.7"], ["1.3.0"]),
        (">=1.1.0,<2.0.0", ["1.1.0", "1.5.2"], ["1.0.9", "2.0.0"]),
        (">1.0.0 <=1.4.0", ["1.0.1", "1.4.0"], ["1.0.0", "1.4.1"]),
    ],
)
def test_matches(spec: str, inside: list[str], outside: list[str]) -> None:
    parsed = parse_version_spec(spec)
    assert all(parsed.matches(v) for v in inside)
    assert not any(parsed.matches(v) for v in outside)
    assert parsed.major == 1


@pytest.mark.parametrize("bad", ["", "one", "1.x.x.x", ">=2.0.0,<1.0.0", "=>1"])
def test_malformed(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_version_spec(bad)
