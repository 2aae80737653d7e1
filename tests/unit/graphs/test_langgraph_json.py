"""`langgraph.json` serves one graph per execution mode, each through `graphs.studio`."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

from graphs.modes import MODES, compile_mode, mode_of
from graphs.studio import FACTORIES
from nodes.bootstrap import load_static_config

CONFIG = Path(__file__).resolve().parents[3] / "langgraph.json"


def _served() -> dict[str, str]:
    return dict(json.loads(CONFIG.read_text(encoding="utf-8"))["graphs"])


def test_every_mode_is_served_by_its_factory() -> None:
    served = _served()
    assert sorted(served) == sorted(MODES)
    for mode, path in served.items():
        module, name = path.split(":")
        assert getattr(importlib.import_module(module), name) is FACTORIES[mode]


def test_every_served_mode_builds_and_is_stamped_with_its_mode() -> None:
    _, roles = load_static_config()
    for mode in _served():
        graph = compile_mode(mode, roles)
        assert mode_of(graph) == mode
        assert "dispatch" in graph.get_graph().nodes
