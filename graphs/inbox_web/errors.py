"""What the inbox answers when a request cannot be served: one line, the right status.

A page is answered with a page saying what and how to fix it, the live
updates' JSON endpoint with JSON; a browser that is not logged in is sent
to the login form and comes back where it was. A token that stopped
working (revoked) also drops the cookie.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from checkpoints.errors import InvalidArgument, NotFound, RolegraphError
from checkpoints.faults import CLIENT_FAULTS
from checkpoints.pool import database_fault
from graphs.inbox_web.auth import COOKIE, Refused, drop_token
from graphs.inbox_web.pages import refused

Handler = Callable[[Request, Exception], Any]


def handlers() -> Mapping[Any, Handler]:
    """Starlette exception handlers for the inbox's errors."""
    table: dict[Any, Handler] = {Refused: _refused, RolegraphError: _rolegraph}
    for fault in CLIENT_FAULTS:
        table[fault] = _fault
    return table


def _refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Refused)
    if _wants_json(request):
        return JSONResponse({"error": exc.detail}, status_code=exc.status)
    if exc.status == 401 and request.method == "GET" and COOKIE not in request.cookies:
        target = quote(request.url.path + (f"?{request.url.query}" if request.url.query else ""))
        return RedirectResponse(f"/login?next={target}", status_code=303)
    response = refused(exc.status, exc.title, exc.detail, back=_back(exc))
    if exc.status in (401, 403) and exc.title != "Form expired":
        drop_token(response)
    return response


def _rolegraph(request: Request, exc: Exception) -> Response:
    status = 404 if isinstance(exc, NotFound) else 400 if isinstance(exc, InvalidArgument) else 503
    if _wants_json(request):
        return JSONResponse({"error": str(exc)}, status_code=status)
    title = {404: "Not found", 400: "Not possible"}.get(status, "Unavailable")
    return refused(status, title, str(exc), back="/")


def _fault(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, CLIENT_FAULTS)
    return _rolegraph(request, database_fault(exc))


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def _back(exc: Refused) -> str:
    return "/login" if exc.status in (401, 403) and exc.title != "Form expired" else "/"
