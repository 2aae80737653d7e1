"""A second domain pack: a library-loans desk (members, books, loans, holds, fines).

It exists to prove the harness knows no retail: the same support graph runs it
with `ROLEGRAPH_DOMAIN=library`. `DOMAIN` is built on first access, so importing
its storage (to seed a database) does not load the whole pack.
"""

from __future__ import annotations

from typing import Any

from nodes.packs import CommandGroup

COMMANDS = (
    CommandGroup(
        "data",
        "load or count the library's members, books and loans",
        "domains.library.commands.data_cmd",
    ),
)
"""What the pack adds to `rolegraph` (listed without loading the pack)."""


def __getattr__(name: str) -> Any:
    if name == "DOMAIN":
        from domains.library.pack import DOMAIN

        return DOMAIN
    raise AttributeError(name)
