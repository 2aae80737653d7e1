"""Who may use the web inbox: operators, by token, re-verified on every request.

The operator pastes a token from `rolegraph tokens issue --kind operator NAME`
into the login form; the inbox keeps it in an HttpOnly, SameSite=Strict cookie
and checks it against the database on every request, so a revoked token stops
working at once. Every form carries a CSRF value derived from the token with a
per-process key; a POST without the matching value changes nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response

from checkpoints.opening import Pool
from checkpoints.tokens import verify_token
from nodes.identity import Identity

COOKIE = "rolegraph_inbox"
CSRF_FIELD = "csrf"
_ISSUE_HINT = "issue one with `rolegraph tokens issue --kind operator NAME`"


class Refused(Exception):
    """The request may not be served: the status, a title and one line saying how to fix it."""

    def __init__(self, status: int, title: str, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.title = title
        self.detail = detail


@dataclass(frozen=True)
class Operator:
    """The operator a request was authenticated as, and the CSRF value of their session."""

    identity: Identity
    csrf: str


class Gate:
    """Logs operators in and out and checks each request; one per app (one CSRF key)."""

    def __init__(self, pool: Pool) -> None:
        self._pool = pool
        self._key = secrets.token_bytes(32)

    async def login(self, token: str) -> Operator:
        """The operator `token` proves; `Refused` for a customer, unknown or revoked token."""
        token = token.strip()
        if not token:
            raise Refused(401, "Token needed", f"paste an operator token; {_ISSUE_HINT}")
        async with self._pool.connection() as conn:
            record = await verify_token(conn, token)
        if record is None:
            raise Refused(401, "Token refused", f"the token is unknown or revoked; {_ISSUE_HINT}")
        if record.kind != "operator":
            raise Refused(
                403,
                "Operators only",
                f"a {record.kind} token cannot open the approval inbox; {_ISSUE_HINT}",
            )
        return Operator(Identity("operator", record.subject), self._csrf(token))

    async def operator(self, request: Request) -> Operator:
        """The operator of a request's cookie, verified now; `Refused` otherwise."""
        token = request.cookies.get(COOKIE)
        if not token:
            raise Refused(401, "Please log in", "log in with an operator token")
        return await self.login(token)

    def check_csrf(self, operator: Operator, sent: object) -> None:
        """Refuse a form whose CSRF value is not this session's."""
        if not isinstance(sent, str) or not hmac.compare_digest(sent, operator.csrf):
            raise Refused(
                403,
                "Form expired",
                "the form is from another page or an earlier server run; reload and try again",
            )

    def _csrf(self, token: str) -> str:
        return hmac.new(self._key, token.encode(), hashlib.sha256).hexdigest()


def keep_token(response: Response, request: Request, token: str, *, secure: bool) -> None:
    """Store the token in the session cookie, out of reach of scripts and other sites
    (and of plain http when `secure` or the request came over https)."""
    response.set_cookie(
        COOKIE,
        token.strip(),
        httponly=True,
        samesite="strict",
        secure=secure or request.url.scheme == "https",
        path="/",
    )


def drop_token(response: Response) -> None:
    """End the session."""
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
