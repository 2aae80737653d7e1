"""The drawn support graph matches the committed drawing.

A wiring change shows up here as a diff to review. To accept it:
`UPDATE_SNAPSHOTS=1 .venv/bin/pytest tests/unit/graphs/test_graph_snapshot.py`
(rewrites the snapshot and `docs/graph.mmd`), or `python -m graphs.draw` for
the docs copy alone.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from graphs.draw import main, support_mermaid
from graphs.support import build_support_graph
from nodes.bootstrap import load_static_config

HERE = Path(__file__).resolve().parent
SNAPSHOT = HERE / "support_graph.mmd"
DOCS_COPY = HERE.parents[2] / "docs" / "graph.mmd"
UPDATE = os.environ.get("UPDATE_SNAPSHOTS") == "1"


@pytest.fixture(scope="module")
def drawn() -> str:
    _, roles = load_static_config()
    return build_support_graph(roles).compile().get_graph().draw_mermaid()


def test_drawn_graph_matches_snapshot(drawn: str) -> None:
    _check(
        SNAPSHOT,
        drawn,
        "UPDATE_SNAPSHOTS=1 .venv/bin/pytest tests/unit/graphs/test_graph_snapshot.py",
    )


def test_docs_copy_matches_the_drawing(drawn: str) -> None:
    _check(DOCS_COPY, drawn, "python -m graphs.draw (from the repository root)")


def test_every_role_is_a_node_wired_back_to_dispatch(drawn: str) -> None:
    # Guards the snapshot against being regenerated from a broken wiring.
    _, roles = load_static_config()
    for role in roles:
        assert f"\trole_{role}(role_{role})" in drawn
        assert f"dispatch -.-> role_{role};" in drawn
        assert f"role_{role} --> dispatch;" in drawn
    # Dispatch routes to the operator's approval before it sends anything else.
    assert "dispatch -.-> approval;" in drawn


def test_draw_script_writes_the_same_text(tmp_path: Path, drawn: str) -> None:
    target = tmp_path / "out" / "graph.mmd"
    assert main([str(target)]) == 0
    assert target.read_text(encoding="utf-8") == drawn == support_mermaid()


def _check(path: Path, drawn: str, how: str) -> None:
    if UPDATE:
        path.write_text(drawn, encoding="utf-8")
    committed = path.read_text(encoding="utf-8") if path.exists() else ""
    if committed != drawn:
        diff = "".join(
            difflib.unified_diff(
                committed.splitlines(keepends=True),
                drawn.splitlines(keepends=True),
                str(path),
                "drawn now",
            )
        )
        pytest.fail(f"{path.name} is out of date with the graph wiring; regenerate: {how}\n{diff}")
