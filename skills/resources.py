"""The vocabulary roles and skills are written in: resources and operations.

The domain declares its resources (a `ResourceVocabulary`); a role file, a
skill's `operations:` and the permission matrix may name only those. An
operation is a verb on a resource (`write db://<table>`) or a bare capability
(`http_call`). Both spellings `write db://<table>` and `write:db://<table>` are
accepted, so deny lists and the permission matrix read naturally.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

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
    context: frozenset[str] = frozenset()
    """Context keys of the domain a role's skill binding may require (beyond the harness's)."""

    @property
    def all(self) -> frozenset[str]:
        """Every resource a role or skill may name."""
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
    """`read <resource>`."""
    return Operation("read", resource)


def write(resource: str) -> Operation:
    """`write <resource>`."""
    return Operation("write", resource)


def execute(resource: str) -> Operation:
    """`execute <resource>`."""
    return Operation("execute", resource)


def looks_like_operation(text: str) -> bool:
    """True for `http_call` and `verb resource` strings; false for skill ids."""
    return text in BARE_OPERATIONS or "://" in text


def parse_operation(text: str, vocabulary: ResourceVocabulary) -> Operation:
    """Parse `http_call`, `write db://<table>` or `write:db://<table>`; ValueError if unknown."""
    text = text.strip()
    if text in BARE_OPERATIONS:
        return Operation(text)
    verb, sep, resource = text.partition(" ") if " " in text else text.partition(":")
    resource = resource.strip()
    if not sep or resource not in vocabulary.all:
        known = ", ".join(sorted(vocabulary.all))
        raise ValueError(f"unknown operation {text!r} (resource must be one of {known})")
    scheme = resource.split("://", 1)[0]
    if verb not in _VERBS_BY_SCHEME[scheme]:
        allowed = "/".join(_VERBS_BY_SCHEME[scheme])
        raise ValueError(f"operation {text!r}: a {scheme}:// resource allows only {allowed}")
    return Operation(verb, resource)


def kb_partitions(resources: Iterable[str]) -> frozenset[str]:
    """The knowledge partitions named by `kb://<partition>` entries of a read list."""
    return frozenset(r.removeprefix("kb://") for r in resources if r.startswith("kb://"))


def operation_of(text: str) -> Operation:
    """The operation an already-checked `parse_operation` text names (no vocabulary needed)."""
    text = text.strip()
    if text in BARE_OPERATIONS:
        return Operation(text)
    verb, _, resource = text.partition(" ") if " " in text else text.partition(":")
    return Operation(verb, resource.strip())
