// Live updates: every 2 s ask which requests still wait; decided ones disappear.
"use strict";
(function () {
  const live = document.body.dataset.live;
  if (!live) return;
  const shown = () => Array.from(document.querySelectorAll("article.request[data-request-id]"));
  async function poll() {
    let response;
    try {
      response = await fetch("/api/pending", { credentials: "same-origin", cache: "no-store" });
    } catch (_) {
      return; // the server restarts or the network blips: try again at the next tick
    }
    if (response.status === 401 || response.status === 403) {
      window.location.assign("/login");
      return;
    }
    if (!response.ok) return;
    const waiting = new Set((await response.json()).requests);
    for (const card of shown()) {
      if (!waiting.has(card.dataset.requestId)) {
        card.remove();
        const gone = document.getElementById("gone");
        if (gone) gone.hidden = false;
      }
    }
    const count = document.getElementById("count");
    if (count) count.textContent = String(shown().length);
    const empty = document.getElementById("empty");
    if (empty) empty.hidden = shown().length > 0;
    const onPage = new Set(shown().map((c) => c.dataset.requestId));
    const banner = document.getElementById("new-requests");
    if (banner && live === "list") banner.hidden = ![...waiting].some((id) => !onPage.has(id));
  }
  window.setInterval(poll, 2000);
})();
