"""The web inbox in a real headless Chromium (Debian's), served by `rolegraph inbox --serve`:
a customer token is refused; an operator logs in, sees a pending cancel, edits its reason,
approves, sees the order cancelled, and the request disappears live from another tab."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.integration.graph.helpers import order_status
from tests.integration.inbox_web.helpers import pending_cancel, token
from tests.support_fixtures import Support

CHROMIUM = Path(os.environ.get("ROLEGRAPH_CHROMIUM") or "/usr/bin/chromium")
"""Debian's chromium (`ROLEGRAPH_CHROMIUM` names another build)."""
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
SCREENSHOT_ENV = "INBOX_SCREENSHOT"
"""Where to save the screenshot of the inbox (docs/inbox.png); a temporary file when unset."""
_STARTUP_S = 180

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"no {CHROMIUM}: `apt-get install chromium` (make test does, as root)",
)
playwright = pytest.importorskip("playwright.async_api", reason="playwright is not installed")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def inbox_url(
    support: Support, db_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """`rolegraph inbox --serve` on a free port of 127.0.0.1, over the module's database."""
    port = _free_port()
    log = tmp_path_factory.mktemp("inbox") / "server.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "rolegraph_cli", "inbox", "--serve", "--port", str(port)],
            env=db_env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, server, log)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)


def _wait_until_up(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + _STARTUP_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"rolegraph inbox --serve exited {server.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{url}/login", timeout=5) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            # Not up yet, or its first page slower than one wait on a loaded machine.
            time.sleep(0.3)
    pytest.fail(f"rolegraph inbox --serve did not answer within {_STARTUP_S}s:\n{log.read_text()}")


@pytest_asyncio.fixture(loop_scope="module")
async def browser(tmp_path: Path) -> AsyncIterator[playwright.BrowserContext]:
    """A fresh headless Chromium profile."""
    async with playwright.async_playwright() as p:
        context = await p.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=str(CHROMIUM), headless=True,
            args=CHROMIUM_FLAGS, viewport={"width": 1100, "height": 1000},
        )  # fmt: skip
        yield context
        await context.close()


async def test_a_customer_token_is_refused(
    support: Support, inbox_url: str, browser: playwright.BrowserContext
) -> None:
    user, _, _ = await pending_cancel(support, skip=30)
    page = await browser.new_page()
    await page.goto(inbox_url)
    assert page.url == f"{inbox_url}/login?next=/"  # sent to log in first
    await page.fill("input[name=token]", await token(support, "customer", user))
    async with page.expect_response(f"{inbox_url}/login") as answered:
        await page.click("button[type=submit]")
    assert (await answered.value).status == 403
    assert "a customer token cannot open the approval inbox" in await page.inner_text("main")
    assert await browser.cookies() == []
    await page.goto(inbox_url)
    assert page.url.startswith(f"{inbox_url}/login")


async def test_an_operator_edits_and_approves_a_cancel_in_the_browser(
    support: Support, inbox_url: str, browser: playwright.BrowserContext, tmp_path: Path
) -> None:
    _, order, first = await pending_cancel(support, skip=31)
    _, other_order, second = await pending_cancel(support, skip=32, reason="I found it cheaper")
    request_id = first.interrupts[0]["id"]
    page = await browser.new_page()
    await page.goto(f"{inbox_url}/login")
    await page.fill("input[name=token]", await token(support, "operator", "olivia"))
    await page.click("button[type=submit]")
    await page.wait_for_url(f"{inbox_url}/")
    (cookie,) = await browser.cookies()
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    assert await page.evaluate("document.cookie") == ""  # out of reach of any script

    card = page.locator(f'article[data-request-id="{request_id}"]')
    text = await card.inner_text()
    assert "cancel_pending_order_v1" in text and order in text and "risk: high" in text
    assert f"please cancel {order}" in text
    await page.screenshot(path=os.environ.get(SCREENSHOT_ENV) or str(tmp_path / "inbox.png"))

    watcher = await browser.new_page()  # another tab, left on the list
    await watcher.goto(inbox_url)
    await watcher.locator(f'article[data-request-id="{request_id}"]').wait_for()

    await card.locator('input[name="arg:reason"]').fill("no longer needed")
    await card.locator('button[value="edit"]').click()
    await page.wait_for_url(f"{inbox_url}/threads/{first.thread_id}?decided={request_id}")
    assert await page.inner_text(".status") == "completed"
    assert f"{order}" in await page.inner_text(".answer")
    assert "cancelled" in await page.inner_text(".answer")
    assert await order_status(support.db.pool, order) == "cancelled"
    assert await order_status(support.db.pool, other_order) == "pending"

    # Decided elsewhere, the request leaves the other tab without a reload.
    await watcher.locator(f'article[data-request-id="{request_id}"]').wait_for(state="detached")
    remaining = watcher.locator("article.request")
    assert await remaining.count() >= 1
    assert await watcher.locator(
        f'article[data-request-id="{second.interrupts[0]["id"]}"]'
    ).is_visible()
    await page.goto(f"{inbox_url}/requests/{request_id}")
    assert "Already decided" in await page.inner_text("main")
