"""Canonical hashes of call arguments and idempotency keys.

Approvals, the idempotency ledger and the audit log all name a call by the
same hash, so it must not depend on dict order or whitespace.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no insignificant whitespace."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def args_hash(args: Mapping[str, Any]) -> str:
    """sha256 hex digest of the canonical JSON of `args`."""
    return hashlib.sha256(canonical_json(dict(args)).encode()).hexdigest()


def idempotency_key(run_id: str, task_id: str, skill_id: str, hashed_args: str) -> str:
    """sha256 of (run, task, skill, args hash): one key per side effect of one task."""
    return hashlib.sha256(
        canonical_json([run_id, task_id, skill_id, hashed_args]).encode()
    ).hexdigest()
