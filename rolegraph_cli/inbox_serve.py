"""`rolegraph inbox --serve`: the web approval inbox on uvicorn."""

from __future__ import annotations

import os

import uvicorn

from graphs.inbox_web.app import create_app
from graphs.inbox_web.views import InboxBackend
from rolegraph_cli.session import open_session

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
INBOX_URL_ENV = "ROLEGRAPH_INBOX_URL"
"""Where operators reach the inbox (notifications link there); `https://` marks the
session cookie Secure, for an inbox behind a TLS proxy."""


async def serve_inbox(host: str, port: int) -> int:
    """Serve the inbox until Ctrl-C or SIGTERM; the database stays open meanwhile."""
    async with open_session(quiet=True) as s:
        secure = os.environ.get(INBOX_URL_ENV, "").startswith("https://")
        app = create_app(InboxBackend(graph=s.graph, ctx=s.ctx), secure_cookies=secure)
        config = uvicorn.Config(app, host=host, port=port, log_level="info", proxy_headers=False)
        server = uvicorn.Server(config)
        print(
            f"rolegraph inbox on http://{host}:{port}/ — log in with an operator token"
            " (`rolegraph tokens issue --kind operator NAME`); Ctrl-C stops it",
            flush=True,
        )
        await server.serve()
    return 0
