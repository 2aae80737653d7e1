"""The web approval inbox: routes over the support graph (`rolegraph inbox --serve`).

`GET /` lists what waits across threads; `GET /requests/{id}` shows one
request (the link an operator notification sends) or says it was already
decided; `POST /requests/{id}/decide` approves, rejects, edits or replies
through `graphs.api.resume_thread`, as the logged-in operator, so "never
approve your own action" and the audit hold as for the CLI. `GET
/api/pending` feeds the page's live updates; `/threads/{id}` and
`/audit/{id}` show where a thread stands and its audit chain.
"""

from __future__ import annotations

from urllib.parse import quote

from starlette.applications import Starlette
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from checkpoints.audit import AUDIT_COLUMNS, audit_cells, fetch_audit_chain
from checkpoints.errors import RolegraphError
from graphs.api import report, resume_thread
from graphs.inbox import answerable_requests
from graphs.inbox_web.auth import CSRF_FIELD, Gate, Operator, Refused, drop_token, keep_token
from graphs.inbox_web.errors import handlers
from graphs.inbox_web.forms import read_decision
from graphs.inbox_web.headers import SecurityHeaders
from graphs.inbox_web.pages import STATIC_DIR, page
from graphs.inbox_web.views import InboxBackend, conversation_of, pending_view, pending_views

MAX_FORM_BYTES = 64_000
"""Size of a posted form: a decision with edited arguments is far smaller."""


def create_app(backend: InboxBackend, *, secure_cookies: bool = False) -> Starlette:
    """The inbox over an open support graph (its pool stays open while the app serves).
    `secure_cookies`: the session cookie only travels over https (behind a TLS proxy)."""
    inbox = _Inbox(backend, secure_cookies)
    routes = [
        Route("/", inbox.waiting),
        Route("/login", inbox.login_form, methods=["GET"]),
        Route("/login", inbox.login, methods=["POST"]),
        Route("/logout", inbox.logout, methods=["POST"]),
        Route("/requests/{request_id}", inbox.one),
        Route("/requests/{request_id}/decide", inbox.decide, methods=["POST"]),
        Route("/threads/{thread_id}", inbox.thread),
        Route("/audit/{audit_id}", inbox.audit),
        Route("/api/pending", inbox.pending_ids),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers=handlers())
    app.add_middleware(SecurityHeaders)
    return app


class _Inbox:
    def __init__(self, backend: InboxBackend, secure_cookies: bool) -> None:
        self.backend = backend
        self.gate = Gate(backend.ctx.pool)
        self.secure_cookies = secure_cookies

    async def login_form(self, request: Request) -> Response:
        nxt = _next(request.query_params.get("next"))
        return page("login.html", title="Log in", next=nxt, error=None)

    async def login(self, request: Request) -> Response:
        form = await _form(request)
        token, nxt = str(form.get("token") or ""), _next(form.get("next"))
        try:
            await self.gate.login(token)
        except Refused as refusal:
            return page(
                "login.html", refusal.status, title="Log in", next=nxt, error=refusal.detail
            )
        response = RedirectResponse(nxt, status_code=303)
        keep_token(response, request, token, secure=self.secure_cookies)
        return response

    async def logout(self, request: Request) -> Response:
        await self._posted(request)
        response = RedirectResponse("/login", status_code=303)
        drop_token(response)
        return response

    async def waiting(self, request: Request) -> Response:
        operator = await self.gate.operator(request)
        views = await pending_views(self.backend)
        return page(
            "list.html", title="Waiting", operator=operator, views=views, error_for={}, live="list"
        )

    async def one(self, request: Request) -> Response:
        operator = await self.gate.operator(request)
        request_id = request.path_params["request_id"]
        view = await pending_view(self.backend, request_id)
        return page(
            "request.html", 200 if view else 404, title=f"Request {request_id}",
            operator=operator, view=view, request_id=request_id, error=None,
            live="one" if view else None,
        )  # fmt: skip

    async def decide(self, request: Request) -> Response:
        operator, form = await self._posted(request)
        request_id = request.path_params["request_id"]
        view = await pending_view(self.backend, request_id)
        if view is None:
            return page(
                "request.html", 409, title="Already decided", operator=operator, view=None,
                request_id=request_id, error=None,
            )  # fmt: skip
        fields = {k: v for k, v in form.multi_items() if isinstance(v, str)}
        try:
            chosen = read_decision(fields, view, self.backend.ctx.registry)
            await resume_thread(
                self.backend.graph, self.backend.ctx, view.item.thread_id,
                decision=chosen.decision, request_id=request_id, args=chosen.args,
                message=chosen.message, actor=operator.identity,
            )  # fmt: skip
        except RolegraphError as exc:
            still = await pending_view(self.backend, request_id)
            return page(
                "request.html", 400 if still else 409, title=f"Request {request_id}",
                operator=operator, view=still, request_id=request_id, error=str(exc),
                live="one" if still else None,
            )  # fmt: skip
        thread = quote(view.item.thread_id, safe="")
        return RedirectResponse(
            f"/threads/{thread}?decided={quote(request_id, safe='')}", status_code=303
        )

    async def thread(self, request: Request) -> Response:
        operator = await self.gate.operator(request)
        thread_id = request.path_params["thread_id"]
        where = await report(self.backend.graph, thread_id)
        return page(
            "thread.html", title=f"Thread {thread_id}", operator=operator, report=where,
            conversation=await conversation_of(self.backend.graph, thread_id),
            decided=request.query_params.get("decided"),
        )  # fmt: skip

    async def audit(self, request: Request) -> Response:
        operator = await self.gate.operator(request)
        audit_id = request.path_params["audit_id"]
        async with self.backend.ctx.pool.connection() as conn:
            chain = await fetch_audit_chain(conn, audit_id)
        rows = [audit_cells(record) for record in chain]
        return page(
            "audit.html", title=f"Audit {audit_id}", operator=operator, audit_id=audit_id,
            header=AUDIT_COLUMNS, rows=rows,
        )  # fmt: skip

    async def pending_ids(self, request: Request) -> Response:
        await self.gate.operator(request)
        items = await answerable_requests(self.backend.graph, self.backend.ctx.pool)
        return JSONResponse({"requests": [i.request_id for i in items]})

    async def _posted(self, request: Request) -> tuple[Operator, FormData]:
        """The operator of a POST and its form, once its CSRF value is checked."""
        operator = await self.gate.operator(request)
        form = await _form(request)
        self.gate.check_csrf(operator, form.get(CSRF_FIELD))
        return operator, form


async def _form(request: Request) -> FormData:
    size = request.headers.get("content-length") or "0"
    if not size.isdigit() or int(size) > MAX_FORM_BYTES:
        raise Refused(413, "Form too large", f"send a form under {MAX_FORM_BYTES} bytes")
    return await request.form(max_files=0)


def _next(value: object) -> str:
    """Where to go after logging in: a path on this site, never another site."""
    if isinstance(value, str) and value.startswith("/") and not value.startswith(("//", "/\\")):
        return value
    return "/"
