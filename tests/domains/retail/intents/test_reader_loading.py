"""The learned reader is loaded when the process starts, off the event loop: a
first request never stalls the other conversations while it loads or trains."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from checkpoints.opening import Database
from domains.retail.understanding import RetailUnderstanding
from nodes.intake import learned
from nodes.intake.learned import IntentModel, ModelSpec


async def test_the_reader_loads_with_the_lexicon_in_a_worker_thread(
    retail_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    on_main_thread: list[bool] = []
    real = learned.load

    def spy(spec: ModelSpec, directory: Path | None = None) -> IntentModel:
        on_main_thread.append(threading.current_thread() is threading.main_thread())
        return real(spec, directory)

    monkeypatch.setattr(learned, "load", spy)
    lexicon = await RetailUnderstanding().lexicon(retail_db.pool)
    assert lexicon["products"] and on_main_thread == [False]
