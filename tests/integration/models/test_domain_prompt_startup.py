"""With model tiers configured, a domain without its intake prompt fails at start-up."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from checkpoints.opening import Database
from nodes.bootstrap import build_support_context
from nodes.domain import load_domain
from nodes.errors import PromptConfigError
from nodes.models import ModelTiers


async def test_a_missing_domain_intake_prompt_is_a_start_up_error(
    retail_db: Database, tmp_path: Path
) -> None:
    domain = dataclasses.replace(load_domain(), prompts=tmp_path)
    with pytest.raises(PromptConfigError, match=r"intake\.md.*add it to the domain pack"):
        await build_support_context(retail_db.pool, env={}, domain=domain, models=ModelTiers())
    ctx = await build_support_context(retail_db.pool, env={}, domain=domain)
    assert ctx.domain.prompts == tmp_path  # rules only: no prompt needed
