"""A real HTTP webhook receiver on 127.0.0.1 that answers with the statuses it is given."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Received:
    """One POST as the receiver read it."""

    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """Answers each POST with the next of `statuses` (the last one repeats); a status
    of 0 reads the request and hangs up without an answer."""

    statuses: list[int] = field(default_factory=lambda: [204])
    received: list[Received] = field(default_factory=list)

    def next_status(self) -> int:
        return self.statuses.pop(0) if len(self.statuses) > 1 else self.statuses[0]


@contextmanager
def receiving(receiver: Receiver) -> Iterator[str]:
    """Run `receiver` on a free port; yield the URL that reaches it."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            receiver.received.append(Received(self.path, dict(self.headers.items()), body))
            status = receiver.next_status()
            if status == 0:
                self.close_connection = True
                return
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            return None  # keep test output to the test's own

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hooks/rolegraph"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
