"""Progressive disclosure: at most three skills' instructions loaded, least recently used out."""

from __future__ import annotations

from nodes.agent.disclosure import MAX_LOADED, skill_doc, touched, used
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
