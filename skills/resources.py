"""The fixed vocabulary roles are written in: resources and operations.

A role file may only name resources from `RESOURCES`; an operation is a verb
on a resource (`write db://orders`) or a bare capability (`http_call`). Both
spellings `write db://orders` and `write:db://orders` are accepted, so deny
lists and the permission matrix read naturally.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

KNOWLEDGE_PARTITIONS = frozenset(
    {"faq", "return_policy", "shipping_policy", "error_codes", "shipping_routes"}
)
DATA_RESOURCES = frozenset(
    {"db://users", "db://orders", "db://products", "db://shipments", "db://notifications"}
)
TOOL_RESOURCES = frozenset({"tool://send_notification", "tool://human_handoff"})
RESOURCES = DATA_RESOURCES | TOOL_RESOURCES | frozenset(f"kb://{p}" for p in KNOWLEDGE_PARTITIONS)
BARE_OPERATIONS = frozenset({"http_call"})


@dataclass(frozen=True)
class ResourceVocabulary:
    """The resources a domain's roles and skills may name."""

    data: frozenset[str]
    """`db://<table-or-collection>` resources."""
    tools: frozenset[str]
    """`tool://<capability>` resources."""
    knowledge: frozenset[str]
    """Knowledge partition names (named as `kb://<partition>`)."""

    @property
    def all(self) -> frozenset[str]:
        return self.data | self.tools | frozenset(f"kb://{p}" for p in self.knowledge)


# Which verbs make sense on which kind of resource.
_VERBS_BY_SCHEME = {"db": ("read", "write"), "kb": ("read",), "tool": ("execute",)}


@dataclass(frozen=True, order=True)
class Operation:
    """One thing a role may or may not do: a verb on a resource, or a bare capability."""

    verb: str
    resource: str | None = None

    def __str__(self) -> str:
        return self.verb if self.resource is None else f"{self.verb} {self.resource}"


def read(resource: str) -> Operation:
    return Operation("read", resource)


def write(resource: str) -> Operation:
    return Operation("write", resource)


def execute(resource: str) -> Operation:
    return Operation("execute", resource)


def looks_like_operation(text: str) -> bool:
    """True for `http_call` and `verb resource` strings; false for skill ids."""
    return text in BARE_OPERATIONS or "://" in text


def parse_operation(text: str) -> Operation:
    """Parse `http_call`, `write db://orders` or `write:db://orders`; ValueError if unknown."""
    text = text.strip()
    if text in BARE_OPERATIONS:
        return Operation(text)
    verb, sep, resource = text.partition(" ") if " " in text else text.partition(":")
    resource = resource.strip()
    if not sep or resource not in RESOURCES:
        raise ValueError(f"unknown operation {text!r} (resource must be one of {_known()})")
    scheme = resource.split("://", 1)[0]
    if verb not in _VERBS_BY_SCHEME[scheme]:
        allowed = "/".join(_VERBS_BY_SCHEME[scheme])
        raise ValueError(f"operation {text!r}: a {scheme}:// resource allows only {allowed}")
    return Operation(verb, resource)


def kb_partitions(resources: Iterable[str]) -> frozenset[str]:
    """The knowledge partitions named by `kb://<partition>` entries of a read list."""
    return frozenset(r.removeprefix("kb://") for r in resources if r.startswith("kb://"))


def _known() -> str:
    return ", ".join(sorted(RESOURCES))
