"""Progressive disclosure: at most three skills' instructions loaded, least recently used out."""

from __future__ import annotations

from nodes.agent.disclosure import MAX_LOADED, loaded_doc, skill_doc, touched, used
from nodes.bootstrap import load_static_config


def test_loading_a_fourth_skill_evicts_the_least_recently_used() -> None:
    loaded: list[str] = []
    for name in ("a", "b", "c"):
        loaded = used(loaded, name)
    assert loaded == ["a", "b", "c"] and MAX_LOADED == 3
    loaded = used(loaded, "a")  # loaded again: now the most recent
    loaded = used(loaded, "d")
    assert loaded == ["c", "a", "d"]


def test_a_call_of_a_loaded_skill_counts_as_use_and_loads_nothing_new() -> None:
    assert touched(["a", "b", "c"], "a") == ["b", "c", "a"]
    assert touched(["a", "b"], "z") == ["a", "b"]


def test_a_skill_doc_is_its_package_readme() -> None:
    registry, _ = load_static_config()
    doc = skill_doc(registry.get("get_order_details_v1"))
    assert doc.startswith("# get_order_details_v1")


def test_a_load_shows_the_instructions_less_what_the_prompt_says_or_the_session_fills() -> None:
    registry, _ = load_static_config()
    session = frozenset({"user_id"})
    order = loaded_doc(registry.get("get_order_details_v1"), session)
    # No title (the load names the skill) and not the tool list's line again; the rest
    # of the description and every section that says more are kept.
    assert not order.startswith("#") and "An order's status, address" not in order
    assert order.startswith("tau2 get_order_details.")
    assert "`order_id` (string): Order id such as" in order and "## Returns" in order
    user = loaded_doc(registry.get("get_user_details_v1"), session)
    # Its only parameter is the session's: neither it nor an empty section is shown.
    assert "user_id" not in user.split("## Risk")[0] and "## Parameters" not in user
    assert "## Returns" in user and "Risk low (read-only)" in user
    # A hand-written README whose first line is not the description keeps it.
    search = loaded_doc(registry.get("search_knowledge_v1"), session)
    assert search.startswith("Full-text search of the project's knowledge base")
