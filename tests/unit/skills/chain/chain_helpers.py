"""Builders shared by the chain unit tests (a unique module name, importable
because pytest puts this folder on sys.path)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skills.contract import SkillRequest, SkillResult
from skills.middleware.call import Call, CallTrace
from skills.registry import SkillRegistry

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


@dataclass(frozen=True)
class Role:
    name: str
    execute: frozenset[str] = frozenset()
    deny: frozenset[str] = frozenset()
    read: frozenset[str] = frozenset()
    context: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def required_context(self, skill_id: str) -> tuple[str, ...]:
        return dict(self.context).get(skill_id, ())


def make_call(registry: SkillRegistry, skill_id: str = "echo_v1", args: Any = None) -> Call:
    args = args if args is not None else {"text": "hi"}
    request = SkillRequest(skill_id=skill_id, args=args, role="tester", audit_id="unit")
    return Call(
        request=request,
        skill=registry.get(skill_id),
        role=Role("tester", frozenset({skill_id})),
        ctx=None,  # type: ignore[arg-type]
        args=args,
        trace=CallTrace(args_hash="h"),
    )


def ok(call: Call) -> SkillResult:
    return SkillResult(skill_id=call.skill_id, status="success", payload={"ok": True})
