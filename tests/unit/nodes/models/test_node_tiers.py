"""Per-node start tiers (ROLEGRAPH_TIER_<NODE>): read once, honoured by the ladder."""

from __future__ import annotations

import re
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from domains.retail.understanding import understand
from nodes.conversation.model_summary import Summariser
from nodes.errors import ModelConfigError, ModelOutputInvalid
from nodes.models import ModelTiers
from nodes.models.call import CallSite, descend
from nodes.models.ladder import model_understanding
from nodes.models.node_tiers import DEFAULT_NODE_TIERS, NODE_SETTINGS, NodeTiers

LOCAL = {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}
ASK = [HumanMessage(content="hello")]
TEXT = "What is going on with the blender in #W1234567?"


def test_defaults_are_todays_tiers() -> None:
    tiers = NodeTiers.from_env({})
    assert dict(tiers.tiers) == {
        "intake": "large",
        "planner": "large",
        "compose": "small",
        "review": "rules",
        "compress": "small",
    }
    assert dict(ModelTiers.from_env(LOCAL).nodes.tiers) == dict(DEFAULT_NODE_TIERS)


def test_each_node_reads_its_own_setting() -> None:
    env = {**LOCAL, "ROLEGRAPH_TIER_PLANNER": "Small", "ROLEGRAPH_TIER_SUMMARY": "rules"}
    tiers = ModelTiers.from_env(env)
    assert tiers.nodes.start("planner", "large") == "small"
    assert tiers.nodes.start("compress", "small") == "rules"
    assert tiers.nodes.start("intake", "large") == "large"
    assert tiers.nodes.start("some_role", "small") == "small"  # not a harness node: as declared


@pytest.mark.parametrize("name", sorted(NODE_SETTINGS.values()))
def test_a_bad_tier_is_a_one_line_config_error(name: str) -> None:
    with pytest.raises(ModelConfigError, match=f"^{name}='huge' is not a tier; set large") as err:
        ModelTiers.from_env({**LOCAL, name: "huge"})
    assert "\n" not in str(err.value)


async def test_rules_means_no_model_call(context: Any, scripted: Any) -> None:
    large, small = scripted(), scripted()
    tiers = ModelTiers(
        large=large, small=small, nodes=NodeTiers.from_env({"ROLEGRAPH_TIER_INTAKE": "rules"})
    )
    rules = understand(TEXT, ("Blender",))
    out = await model_understanding(context(tiers), {"thread_id": "t-rules"}, rules)
    assert out is rules and large.calls == [] and small.calls == []


async def test_small_start_never_asks_the_large_tier(scripted: Any) -> None:
    large, small = scripted(), scripted("fine")
    tiers = ModelTiers(
        large=large, small=small, nodes=NodeTiers.from_env({"ROLEGRAPH_TIER_PLANNER": "small"})
    )
    found = await descend(tiers, None, CallSite("planner"), "large", ASK, lambda r, t: (r, t))
    assert found == ("fine", "small") and large.calls == []


async def test_the_same_model_object_on_both_tiers_is_asked_once(scripted: Any) -> None:
    both = scripted("not what the node wants")

    def reject(reply: str, tier: str) -> str:
        raise ModelOutputInvalid("planner", "rejected")

    tiers = ModelTiers(large=both, small=both)
    assert await descend(tiers, None, CallSite("planner"), "large", ASK, reject) is None
    assert len(both.calls) == 1  # the small tier would send the identical request again


async def test_every_call_sets_max_tokens_to_the_cap(scripted: Any) -> None:
    large = scripted("ok")
    tiers = ModelTiers.from_env({**LOCAL, "ROLEGRAPH_MAX_TOKENS": "300"})
    tiers = ModelTiers(large=large, budgets=tiers.budgets)
    await descend(tiers, None, CallSite("planner"), "large", ASK, lambda r, t: r)
    assert large.call_kwargs[0]["max_tokens"] == 300


async def test_summary_on_rules_asks_no_model(scripted: Any) -> None:
    small = scripted()
    nodes = NodeTiers.from_env({"ROLEGRAPH_TIER_SUMMARY": "rules"})
    summariser = Summariser(
        ModelTiers(small=small, nodes=nodes),
        None,
        CallSite("compress"),
        re.compile("x"),
        frozenset(),
    )  # type: ignore[arg-type]
    assert await summariser.ask("turn record: {}", 200) is None
    assert small.calls == []


def test_the_start_up_notice_names_changed_tiers_and_budgets() -> None:
    env = {
        **LOCAL,
        "ROLEGRAPH_MODEL_SMALL": "tiny",
        "ROLEGRAPH_TIER_PLANNER": "small",
        "ROLEGRAPH_BUDGET_REQUEST": "5000",
    }
    notice = ModelTiers.from_env(env).describe()
    assert "; node tiers planner=small; token budgets request 5000" in notice
