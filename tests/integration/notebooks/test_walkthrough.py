"""`notebooks/01_walkthrough.ipynb` runs top to bottom on a fresh, empty database.

The kernel gets DATABASE_URL of this module's database, so the notebook's
own seeding step loads the reference data; every cell must run without an
error and the statuses it prints must be the ones the walkthrough promises.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

REPO_ROOT = Path(__file__).resolve().parents[3]
NOTEBOOK = REPO_ROOT / "notebooks" / "01_walkthrough.ipynb"


@pytest.fixture(scope="module")
def executed(db_env: dict[str, str]) -> Any:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(REPO_ROOT)}}
    )
    # Executes every cell; an error in any cell raises CellExecutionError.
    client.execute(env={**db_env, "PYDEVD_DISABLE_FILE_VALIDATION": "1"})
    return nb


def test_notebook_runs_without_errors(executed: Any) -> None:
    outputs = [o for c in executed.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert outputs, "the notebook printed nothing"
    assert not [o for o in outputs if o.output_type == "error"]
    assert all(c.get("execution_count") for c in executed.cells if c.cell_type == "code")


def test_walkthrough_shows_each_step(executed: Any) -> None:
    text = _cell_texts(executed)
    assert (
        "loaded 1000 orders" in text["await ensure_reference_data"]
    )  # the empty database was seeded
    assert text['run_request(\n    graph, ctx, text=f"What'].startswith(
        "completed ['order_status']"
    )
    assert "next: ()" in text["aget_state("] and "status: completed" in text["aget_state("]
    asked = text["Please cancel"]
    assert asked.startswith("needs_input confirm\n") and "cancel order #W" in asked
    cancel = text['text="yes"']
    assert cancel.startswith("interrupted 2\napr-") and "cancel_pending_order_v1 high" in cancel
    assert text["resume_thread("].startswith("completed\n")
    assert "cancelled" in text["resume_thread("]
    history = text["aget_state_history"].splitlines()
    assert len(history) > 5 and "completed" in history[0] and "('approval',)" in "".join(history)
    assert "needs_input" in "".join(history)  # the first turn's question is on the thread
    assert text["before_compose"] == "completed\nTrue\n"


def _cell_texts(nb: Any) -> dict[str, str]:
    """Printed text of each code cell, keyed by a snippet of its source."""
    keys = [
        "await ensure_reference_data",
        'run_request(\n    graph, ctx, text=f"What',
        "aget_state(",
        "Please cancel",
        'text="yes"',
        "resume_thread(",
        "aget_state_history",
        "before_compose",
    ]
    texts: dict[str, str] = {}
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        printed = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
        for key in keys:
            if key in cell.source and key not in texts:
                texts[key] = printed
    assert set(texts) == set(keys), f"cells missing from the notebook: {set(keys) - set(texts)}"
    return texts
