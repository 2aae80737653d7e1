"""Budget settings and the allowance arithmetic (no database)."""

from __future__ import annotations

import pytest
from langchain_core.messages import HumanMessage
from langchain_core.messages.utils import count_tokens_approximately

from checkpoints.errors import ConfigurationError
from checkpoints.settings import PoolSettings
from checkpoints.token_ledger import Spent
from nodes.errors import ModelConfigError
from nodes.models.budget import DEFAULT_MAX_TOKENS, MIN_REPLY_TOKENS, Allowance, Budgets
from nodes.models.estimate import estimate_input_tokens


def test_unset_budgets_are_no_limit() -> None:
    budgets = Budgets.from_env({})
    assert budgets == Budgets(None, None, None, DEFAULT_MAX_TOKENS)
    assert not budgets.limited
    assert budgets.allowance(Spent(10**9, 10**9, 10**9), 10**6) == Allowance(DEFAULT_MAX_TOKENS)


def test_budgets_are_read_once() -> None:
    env = {
        "ROLEGRAPH_BUDGET_REQUEST": "5000",
        "ROLEGRAPH_BUDGET_AGENT": "2000",
        "ROLEGRAPH_BUDGET_DAY": "1000000",
        "ROLEGRAPH_MAX_TOKENS": "512",
    }
    assert Budgets.from_env(env) == Budgets(5000, 2000, 1000000, 512)


@pytest.mark.parametrize(
    "name", ["ROLEGRAPH_BUDGET_REQUEST", "ROLEGRAPH_BUDGET_AGENT", "ROLEGRAPH_BUDGET_DAY"]
)
@pytest.mark.parametrize("raw", ["lots", "0", "-5", "1.5", "nan"])
def test_a_bad_budget_is_a_one_line_error(name: str, raw: str) -> None:
    with pytest.raises(ModelConfigError, match=f"^{name}=.*unset it for no limit$"):
        Budgets.from_env({name: raw})


def test_max_tokens_below_a_useful_reply_is_refused() -> None:
    with pytest.raises(ModelConfigError, match=r"^ROLEGRAPH_MAX_TOKENS="):
        Budgets.from_env({"ROLEGRAPH_MAX_TOKENS": str(MIN_REPLY_TOKENS - 1)})


def test_max_tokens_is_the_cap_or_what_the_tightest_budget_leaves() -> None:
    budgets = Budgets(request=1000, agent=400, day=None, max_tokens=256)
    assert budgets.allowance(Spent(0, 0, 0), 50) == Allowance(256)
    # agent: 400 - 200 spent - 50 input = 150 left for the reply
    assert budgets.allowance(Spent(300, 200, 0), 50) == Allowance(150)
    # request: 1000 - 900 - 50 = 50, tighter than the agent's 400 - 0 - 50
    assert budgets.allowance(Spent(900, 0, 0), 50) == Allowance(50)


def test_a_call_that_could_not_write_a_reply_is_over_budget() -> None:
    budgets = Budgets(request=None, agent=None, day=1000)
    assert budgets.allowance(Spent(0, 0, 1000 - 50 - MIN_REPLY_TOKENS + 1), 50) == Allowance(
        0, over="day"
    )
    assert budgets.allowance(Spent(0, 0, 1000 - 50 - MIN_REPLY_TOKENS), 50) == Allowance(
        MIN_REPLY_TOKENS
    )


def test_numeric_settings_share_one_reader() -> None:
    # The pool's settings reject what the model timeouts reject: one helper reads both.
    with pytest.raises(ConfigurationError, match=r"^ROLEGRAPH_POOL_TIMEOUT='nan' is not usable"):
        PoolSettings.from_env({"ROLEGRAPH_POOL_TIMEOUT": "nan"})


def test_the_estimate_counts_a_chinese_character_as_a_token() -> None:
    english = [HumanMessage(content="a" * 400)]
    chinese = [HumanMessage(content="订" * 400)]
    base = count_tokens_approximately(english)
    assert estimate_input_tokens(english) == base  # the four-characters rule
    assert estimate_input_tokens(chinese) == base + 300  # 400 tokens of text, not 100
