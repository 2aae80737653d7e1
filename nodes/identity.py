"""Who is acting: a customer (bound to one user id) or an operator.

Every entry point authenticates its caller and hands the graph one
`Identity` in `config["configurable"]["langgraph_auth_user"]` — the key the
LangGraph server fills from `langgraph_sdk.Auth` and refuses from clients
(`RESERVED_CONFIGURABLE_KEYS`). The Python API and the CLI set the same key
themselves, so nodes read identity one way whatever runs them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

IdentityKind = Literal["customer", "operator"]
AUTH_USER_KEY = "langgraph_auth_user"


@dataclass(frozen=True)
class Identity:
    """An authenticated caller."""

    kind: IdentityKind
    subject: str
    """The customer's user id, or the operator's name."""

    @property
    def user_id(self) -> str | None:
        """The customer this identity may act for (None for operators)."""
        return self.subject if self.kind == "customer" else None

    @property
    def is_operator(self) -> bool:
        return self.kind == "operator"

    @property
    def label(self) -> str:
        """`operator:alice` / `customer:anya_garcia_3271`, as audit and approvals record it."""
        return f"{self.kind}:{self.subject}"

    def as_auth_user(self) -> dict[str, Any]:
        """The user dict `langgraph_sdk.Auth.authenticate` returns for this identity."""
        return {
            "identity": self.label,
            "kind": self.kind,
            "subject": self.subject,
            "permissions": [self.kind],
            "is_authenticated": True,
        }


def identity_of(config: Mapping[str, Any] | None) -> Identity | None:
    """The identity of the running graph call, or None when nobody authenticated."""
    user = ((config or {}).get("configurable") or {}).get(AUTH_USER_KEY)
    if user is None:
        return None
    if isinstance(user, Identity):
        return user
    kind, subject = _field(user, "kind"), _field(user, "subject")
    if kind not in ("customer", "operator") or not isinstance(subject, str) or not subject:
        return None
    return Identity(kind=kind, subject=subject)


def _field(user: Any, name: str) -> Any:
    # The server hands over a dict, a BaseUser proxy (item access) or a
    # deserialised mapping, depending on its version and encryption settings.
    if isinstance(user, Mapping):
        return user.get(name)
    try:
        return user[name]
    except (KeyError, TypeError, IndexError):
        return getattr(user, name, None)
