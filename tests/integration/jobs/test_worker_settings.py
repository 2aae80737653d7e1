"""Worker settings and the `rolegraph worker` command line (no worker is started)."""

from __future__ import annotations

import pytest

from checkpoints.errors import ConfigurationError
from checkpoints.jobs import WorkerSettings
from graphs.jobs import TurnRequest
from graphs.maintenance import MaintenanceSettings
from nodes.identity import Identity
from tests.cli import run_cli


def test_worker_settings_default_and_from_env() -> None:
    assert WorkerSettings.from_env({}) == WorkerSettings(10.0, 30.0)
    env = {"ROLEGRAPH_WORKER_HEARTBEAT": "1", "ROLEGRAPH_WORKER_STALLED_AFTER": "5"}
    assert WorkerSettings.from_env(env) == WorkerSettings(1.0, 5.0)


@pytest.mark.parametrize(
    ("env", "names"),
    [
        ({"ROLEGRAPH_WORKER_HEARTBEAT": "soon"}, "ROLEGRAPH_WORKER_HEARTBEAT='soon'"),
        ({"ROLEGRAPH_WORKER_STALLED_AFTER": "-1"}, "ROLEGRAPH_WORKER_STALLED_AFTER='-1'"),
        ({"ROLEGRAPH_WORKER_STALLED_AFTER": "15"}, "must exceed twice"),
    ],
)
def test_unusable_worker_settings_say_how_to_fix_them(env: dict[str, str], names: str) -> None:
    with pytest.raises(ConfigurationError, match=names):
        WorkerSettings.from_env(env)


def test_retained_threads_need_an_age() -> None:
    assert MaintenanceSettings.from_env({}).threads_older_than is None
    assert MaintenanceSettings.from_env({"ROLEGRAPH_RETAIN_THREADS": "30d"}).threads_older_than
    with pytest.raises(ConfigurationError, match="ROLEGRAPH_RETAIN_THREADS='soon'"):
        MaintenanceSettings.from_env({"ROLEGRAPH_RETAIN_THREADS": "soon"})


def test_a_turn_request_survives_the_queue_as_json() -> None:
    operator = Identity("operator", "alice")
    request = TurnRequest.resume("thr-000000000001", operator, "edit", args={"order_id": "#W1"})
    again = TurnRequest.model_validate(request.model_dump(mode="json"))
    assert again == request and again.actor == operator
    turn = TurnRequest.new_turn("hello", "u1")
    assert turn.thread_id.startswith("thr-") and turn.actor == Identity("customer", "u1")


def test_worker_refuses_a_concurrency_below_one(db_env: dict[str, str]) -> None:
    done = run_cli(db_env, "worker", "--concurrency", "0")
    assert done.returncode == 2
    assert done.stderr.strip() == "rolegraph: error: --concurrency must be at least 1, got 0"
