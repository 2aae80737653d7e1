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

_HERE = Path(__file__).parent
STATIC_DIR = _HERE / "static"

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
