"""The inbox's HTML: Jinja2 templates rendered with every value escaped.

Arguments, reasons, evidence and conversation text are customer or model
text: autoescaping is on for every template, and no template marks a value
safe (`graphs.inbox_web.headers` forbids inline script besides).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from starlette.responses import HTMLResponse

from checkpoints.audit import AuditRecord

_HERE = Path(__file__).parent
STATIC_DIR = _HERE / "static"
AUDIT_HEADER = (
    "time", "step", "node", "role", "skill@version", "status",
    "error", "retries", "duration_ms", "breaker", "approval",
)  # fmt: skip
"""The columns of `rolegraph audit`."""

_ENV = Environment(
    loader=FileSystemLoader(_HERE / "templates"),
    autoescape=True,
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
_ENV.filters["json"] = lambda value: json.dumps(value, ensure_ascii=False)


def page(template: str, status: int = 200, **values: Any) -> HTMLResponse:
    """One rendered page with the inbox's security headers."""
    values.setdefault("operator", None)
    values.setdefault("live", None)
    values.setdefault("title", "Approval inbox")
    html = _ENV.get_template(template).render(**values)
    return HTMLResponse(html, status_code=status)


def refused(status: int, title: str, detail: str, *, back: str = "/login") -> HTMLResponse:
    """A page that says what was refused and how to go on."""
    label = "Log in" if back.startswith("/login") else "Back"
    return page("refused.html", status, title=title, detail=detail, back=back, back_label=label)


def audit_cells(record: AuditRecord) -> tuple[str, ...]:
    """One audit event as `rolegraph audit` prints it."""
    e = record.event
    skill = f"{e.skill}@{e.version}" if e.version else (e.skill or "-")
    return (
        record.created_at.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3],
        str(e.step),
        e.node or "-",
        e.role or "-",
        skill,
        e.status,
        e.error_code or "-",
        str(e.retries),
        str(e.duration_ms),
        e.breaker_state or "-",
        e.approval_id or "-",
    )
