"""`rolegraph inbox --serve`: the web approval inbox on uvicorn."""

from __future__ import annotations

import os
import socket

from checkpoints.errors import InvalidArgument
from rolegraph_cli.session import open_session

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
INBOX_URL_ENV = "ROLEGRAPH_INBOX_URL"
"""Where operators reach the inbox (notifications link there); `https://` marks the
session cookie Secure, for an inbox behind a TLS proxy."""


async def serve_inbox(host: str, port: int) -> int:
    """Serve the inbox until Ctrl-C or SIGTERM; the database stays open meanwhile."""
    # Imported here: `run`, `resume` and `chat` share this module's command group
    # and need no web server.
    import uvicorn

    from graphs.inbox_web.app import create_app
    from graphs.inbox_web.views import InboxBackend

    listening = _listen(host, port)
    async with open_session(quiet=True) as s:
        secure = os.environ.get(INBOX_URL_ENV, "").startswith("https://")
        app = create_app(InboxBackend(graph=s.graph, ctx=s.ctx), secure_cookies=secure)
        server = uvicorn.Server(uvicorn.Config(app, log_level="info", proxy_headers=False))
        print(
            f"rolegraph inbox on http://{host}:{port}/ — log in with an operator token"
            " (`rolegraph tokens issue --kind operator NAME`); Ctrl-C stops it",
            flush=True,
        )
        await server.serve(sockets=[listening])
    return 0


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound before anything starts so a taken port is one line."""
    if not 0 < port < 65536:
        raise InvalidArgument(f"--port {port} is not a TCP port; use 1-65535")
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as exc:
        raise InvalidArgument(
            f"cannot listen on {host}:{port} ({exc.strerror or exc}); pick another --host/--port"
        ) from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock
