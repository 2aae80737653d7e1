"""The served graph: `langgraph dev` on 127.0.0.1 over a case database, and sdk clients.

Tokens come from `rolegraph tokens issue`; where that command does not exist
yet, clients carry no token, and every case that an unauthenticated caller
gets through counts against the project (fail closed).
"""

from __future__ import annotations

import json as stdlib_json
import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from langgraph_sdk import get_sync_client
from langgraph_sdk.client import SyncLangGraphClient

from chaos.proc import cli
from chaos.smtp_servers import free_port

REPO = Path(__file__).resolve().parent.parent
READY_S = 180.0
ASSISTANT = "support"


@dataclass(frozen=True)
class Served:
    """A running dev server and the environment its CLI twin uses."""

    url: str
    env: dict[str, str]
    _tokens: dict[tuple[str, ...], str | None] = field(default_factory=dict)
    _clients: dict[str | None, SyncLangGraphClient] = field(default_factory=dict)

    def client(self, token: str | None) -> SyncLangGraphClient:
        """An sdk client sending `token` (none: anonymous); one per token, closed with the server."""
        if token not in self._clients:
            headers = {"Authorization": f"Bearer {token}"} if token else None
            self._clients[token] = get_sync_client(
                url=self.url, api_key=None, headers=headers, timeout=120
            )
        return self._clients[token]

    def close(self) -> None:
        for client in self._clients.values():
            client.close()

    def token(self, *who: str) -> str | None:
        """`rolegraph tokens issue --customer U` / `--operator NAME`; None when unavailable."""
        if who not in self._tokens:
            ran = cli(self.env, "tokens", "issue", *who)
            words = ran.stdout.split()
            self._tokens[who] = words[-1] if ran.rc == 0 and words else None
        return self._tokens[who]

    def wait_run(self, thread: str, token: str | None, body: dict[str, Any]) -> Any:
        """`POST /threads/T/runs/wait` with `body` encoded by the stdlib `json`, which (unlike
        the sdk's orjson) sends lone surrogates and deep nesting as they are, so the server,
        not the client, meets them. A run that raised comes back as `__error__`: re-raised."""
        headers = {"Content-Type": "application/json"}
        headers |= {"Authorization": f"Bearer {token}"} if token else {}
        response = httpx.post(
            f"{self.url}/threads/{thread}/runs/wait",
            content=stdlib_json.dumps({"assistant_id": ASSISTANT, **body}),
            headers=headers,
            timeout=120,
        )
        response.raise_for_status()
        result = response.json()
        if isinstance(result, dict) and "__error__" in result:
            raise RuntimeError(f"run failed on the server: {str(result['__error__'])[:160]}")
        return result

    def raw(
        self, method: str, path: str, token: str | None = None, json: Any = None
    ) -> httpx.Response:
        """One plain HTTP request, as an attacker without the sdk would send it."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.request(method, self.url + path, json=json, headers=headers, timeout=120)


@contextmanager
def serve(env: dict[str, str]) -> Iterator[Served]:
    """`langgraph dev` in a scratch directory (its local state stays there)."""
    cli_path = REPO / ".venv" / "bin" / "langgraph"
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="chaos-lg-") as work:
        log = Path(work) / "dev.log"
        # No run records of its own, as `make studio`: threads live in the project's Postgres.
        quiet = {"LANGSMITH_TRACING": "false", "LANGGRAPH_CLI_NO_ANALYTICS": "1",
                 "LANGGRAPH_DISABLE_FILE_PERSISTENCE": "true"}  # fmt: skip
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [str(cli_path), "dev", "--port", str(port), "--no-browser", "--no-reload",
                 "--config", str(REPO / "langgraph.json")],
                cwd=work, env={**env, **quiet}, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
            try:
                url = f"http://127.0.0.1:{port}"
                _wait_ready(proc, url, log)
                served = Served(url, env)
                try:
                    yield served
                finally:
                    served.close()
            finally:
                _stop(proc)


def _wait_ready(proc: subprocess.Popen[bytes], url: str, log: Path) -> None:
    deadline = time.monotonic() + READY_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"langgraph dev exited {proc.returncode}: {log.read_text()[-2000:]}")
        try:
            if httpx.get(f"{url}/ok", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"langgraph dev not ready in {READY_S:.0f}s")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=20)
