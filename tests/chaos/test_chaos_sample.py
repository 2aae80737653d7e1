"""A small fixed sample of `make chaos`: a few cases of every category, all must recover.

The same runners as the full campaign (`python -m chaos --sample`), on real
Postgres, a real local SMTP server, a local OpenAI-compatible stub and the real
`langgraph dev` server.
"""

from __future__ import annotations

import pytest

from chaos.__main__ import CATEGORIES, campaign
from chaos.tally import BAD, Tally


@pytest.fixture(scope="module")
def tallies() -> dict[str, Tally]:
    return {t.category: t for t in campaign(list(CATEGORIES), sample=True, verbose=False)}


@pytest.mark.parametrize(
    "category", ["kill9", "smtp", "postgres", "model", "hostile", "escalation"]
)
def test_sample_recovers_every_case(tallies: dict[str, Tally], category: str) -> None:
    tally = tallies[category]
    assert tally.tried > 0
    bad = {kind: getattr(tally, kind) for kind in BAD if getattr(tally, kind)}
    failures = ["; ".join([f.case, *f.notes]) for f in tally.failures]
    assert bad == {} and tally.recovered == tally.tried, "\n".join(failures)
