"""Draw the support graph as Mermaid.

`python -m graphs.draw [PATH]` rewrites PATH (default `docs/graph.mmd`, from
the repository root), the drawing the README embeds; a snapshot test fails
when the wiring changes and the drawing does not.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from graphs.support import build_support_graph
from nodes.bootstrap import load_static_config

DEFAULT_PATH = Path("docs") / "graph.mmd"


def support_mermaid() -> str:
    """The support graph, with the role nodes of the chosen domain's roles, as Mermaid text."""
    _, roles = load_static_config()
    return build_support_graph(roles).compile().get_graph().draw_mermaid()


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    path = Path(args[0]) if args else DEFAULT_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(support_mermaid(), encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
