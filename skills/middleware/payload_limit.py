"""Payload limit: a result whose JSON exceeds the skill's
`resource_limits.max_payload_bytes` is replaced by a `TruncatedResult`: its
size, the limit, where the whole result is (this call's audit row: audit id,
task id, skill) and a preview cut to fit. The result is flagged `truncated`
and its notice says so, which the task's outcome carries. (A limit smaller
than the marker itself leaves the preview empty; the marker is still sent.)
"""

from __future__ import annotations

import json
from typing import Any

from skills.contract import SkillResult, TruncatedResult
from skills.middleware.call import Call, Next


def payload_size(payload: Any) -> int:
    """Bytes of the payload as compact UTF-8 JSON."""
    return len(_json(payload).encode())


class PayloadLimit:
    """Truncate over-limit results, pointing at the audit row that keeps them."""

    async def __call__(self, call: Call, next: Next) -> SkillResult:
        result = await next(call)
        limit = call.metadata.resource_limits.max_payload_bytes
        if not result.ok or payload_size(result.payload) <= limit:
            return result
        marker = truncated(call, result.payload, limit)
        call.trace.detail["truncated"] = {"size_bytes": marker.size_bytes, "limit_bytes": limit}
        call.trace.add_notice(
            f"{call.skill_id} result truncated: {marker.size_bytes} bytes is over its"
            f" {limit}-byte limit; the whole result is in audit {marker.audit_id}"
            f" (task {marker.task_id})"
        )
        return result.model_copy(
            update={"payload": marker.model_dump(), "truncated": True, "notice": call.trace.notice}
        )


def truncated(call: Call, payload: Any, limit: int) -> TruncatedResult:
    """The marker for `payload`, its preview shortened until the marker fits `limit`."""
    text = _json(payload)
    req = call.request

    def marker(preview: str) -> TruncatedResult:
        return TruncatedResult(
            skill_id=call.skill_id,
            size_bytes=len(text.encode()),
            limit_bytes=limit,
            audit_id=req.audit_id,
            task_id=req.task_id,
            preview=preview,
        )

    preview = text[:limit]
    while preview and payload_size(marker(preview).model_dump()) > limit:
        preview = preview[: len(preview) * 3 // 4]
    return marker(preview)


def _json(payload: Any) -> str:
    return json.dumps(payload, default=str, ensure_ascii=False, separators=(",", ":"))
