"""The reference domain pack: e-commerce customer operations on tau2-bench retail data.

`DOMAIN` is built on first access, so importing a part of the pack (its
storage for `rolegraph data load`) does not load the whole pack.
"""

from __future__ import annotations

from typing import Any

from nodes.packs import CommandGroup

COMMANDS = (
    CommandGroup(
        "data", "load, export, hash or generate the retail data", "domains.retail.commands.data_cmd"
    ),
    CommandGroup("tau2", "tau2-bench retail conformance", "domains.retail.commands.tau2_cmd"),
)
"""What the pack adds to `rolegraph` (listed without loading the pack)."""


def __getattr__(name: str) -> Any:
    if name == "DOMAIN":
        from domains.retail.pack import DOMAIN

        return DOMAIN
    raise AttributeError(name)
