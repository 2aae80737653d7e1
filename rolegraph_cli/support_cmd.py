"""`rolegraph run|resume|chat|inbox`: talk to the support graph."""

from __future__ import annotations

import argparse
import json
from typing import Any

from checkpoints.errors import InvalidArgument
from graphs.api import RunReport, continue_thread, new_thread_id, resume_thread, run_request
from rolegraph_cli.common import run_command
from rolegraph_cli.session import Session, open_session

DECISIONS = ("approve", "reject", "edit")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = subparsers.add_parser("run", help="run one customer request")
    run.add_argument("text")
    run.add_argument("--user-id", required=True, help="the authenticated customer")
    run.add_argument("--thread-id")
    run.add_argument("--json", action="store_true", help="print one JSON object as the last line")
    run.set_defaults(handler=lambda a: run_command(lambda: _run(a)))
    resume = subparsers.add_parser(
        "resume",
        help="answer a thread's pending approval, or continue a crashed thread (no --decision)",
    )
    resume.add_argument("thread_id")
    resume.add_argument(
        "--decision",
        choices=[*DECISIONS, "reply"],
        help="omit to continue a thread whose last run died, from its last checkpoint",
    )
    resume.add_argument("--request-id")
    resume.add_argument("--args", help="edited arguments as a JSON object (with --decision edit)")
    resume.add_argument("--message", help="the human's reply to an escalation")
    resume.add_argument("--json", action="store_true")
    resume.set_defaults(handler=lambda a: run_command(lambda: _resume(a)))
    inbox = subparsers.add_parser("inbox", help="pending approvals across threads")
    inbox.set_defaults(handler=lambda a: run_command(_inbox))
    chat = subparsers.add_parser("chat", help="interactive session; approvals asked inline")
    chat.add_argument("--user-id", required=True)
    chat.set_defaults(handler=lambda a: run_command(lambda: _chat(a.user_id)))


async def _run(args: argparse.Namespace) -> int:
    thread_id = args.thread_id or new_thread_id()
    if not args.json:
        # Shown first, so a run that dies on the way can be continued by its id.
        print(
            f"thread {thread_id}: started (if it dies, `rolegraph resume {thread_id}` continues it)"
        )
    async with open_session(quiet=args.json) as s:
        result = await run_request(
            s.graph, s.ctx, text=args.text, user_id=args.user_id, thread_id=thread_id,
            actor=s.operator, on_step=None if args.json else _progress,
        )  # fmt: skip
    return _print(result, args.json)


async def _resume(args: argparse.Namespace) -> int:
    edited = _parse_args(args.args)
    if args.decision is None and (edited is not None or args.message or args.request_id):
        raise InvalidArgument("--args, --message and --request-id need a --decision")
    async with open_session(quiet=args.json) as s:
        progress = None if args.json else _progress
        if args.decision is None:
            result = await continue_thread(
                s.graph, s.ctx, args.thread_id, actor=s.operator, on_step=progress
            )
        else:
            result = await resume_thread(
                s.graph, s.ctx, args.thread_id, decision=args.decision,
                request_id=args.request_id, args=edited, message=args.message,
                actor=s.operator, on_step=progress,
            )  # fmt: skip
    return _print(result, args.json)


async def _inbox() -> int:
    async with open_session(quiet=True) as s, s.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT request_id, thread_id, kind, skill, risk, args, reason, created_at"
            " FROM approvals WHERE status = 'pending' ORDER BY created_at"
        )
        rows = await cur.fetchall()
    for r in rows:
        print(
            f"{r['thread_id']}  {r['request_id']}  {r['kind']}  {r['skill'] or '-'}"
            f"  risk={r['risk'] or '-'}  args={json.dumps(r['args'], ensure_ascii=False)}  {r['reason']}"
        )
    print(f"{len(rows)} pending")
    return 0


async def _chat(user_id: str) -> int:
    async with open_session() as s:
        print("rolegraph chat — empty line or Ctrl-D to quit")
        while (text := _ask("you> ")) is not None:
            result = await run_request(
                s.graph, s.ctx, text=text, user_id=user_id, on_step=_progress
            )
            while result.interrupts:
                result = await _answer_inline(s, result)
            print(f"bot> {result.answer}")
    return 0


async def _answer_inline(s: Session, result: RunReport) -> RunReport:
    """The local operator answers the first pending request at the prompt."""
    request = result.interrupts[0]
    print(
        f"  needs {request['kind']}: {request['skill'] or ''} {request['args']} — {request['reason']}"
    )
    args: dict[str, Any] | None = None
    message: str | None = None
    if request["kind"] == "escalation":
        decision, message = "reply", _ask_text("  reply> ", result)
    else:
        decision = _ask_choice("  approve, reject or edit? ", DECISIONS, result)
        if decision == "edit":
            args = _parse_args(_ask_text("  edited args (JSON)> ", result))
    return await resume_thread(
        s.graph, s.ctx, result.thread_id, decision=decision, request_id=request["id"],
        args=args, message=message, actor=s.operator, on_step=_progress,
    )  # fmt: skip


def _ask_choice(prompt: str, choices: tuple[str, ...], pending: RunReport) -> str:
    """Ask until the answer is exactly one of `choices`; anything else is asked again."""
    while (answer := _ask_text(prompt, pending).lower()) not in choices:
        print(f"  please answer exactly one of: {', '.join(choices)}")
    return answer


def _ask_text(prompt: str, pending: RunReport) -> str:
    """A non-empty answer; end of input leaves the request pending and ends the chat."""
    while True:
        try:
            line = input(prompt).strip()
        except EOFError:
            raise InvalidArgument(
                f"no answer given; thread {pending.thread_id} still waits: answer it with"
                f" `rolegraph resume {pending.thread_id} --decision ...`"
            ) from None
        if line:
            return line


def _ask(prompt: str) -> str | None:
    try:
        line = input(prompt).strip()
    except EOFError:
        return None
    return line or None


def _parse_args(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidArgument(
            f'--args is not valid JSON ({exc.msg} at column {exc.colno}); pass an object like \'{{"order_id": "#W1"}}\''
        ) from exc
    if not isinstance(value, dict):
        raise InvalidArgument(
            '--args must be a JSON object, e.g. \'{"reason": "no longer needed"}\''
        )
    return value


def _progress(node: str, update: dict[str, Any]) -> None:
    for line in update.get("trace") or []:
        print(f"  · {line}")


def _print(result: RunReport, as_json: bool) -> int:
    if as_json:
        print(json.dumps(result.to_json(), ensure_ascii=False, default=str))
        return 0
    print(f"thread {result.thread_id}: {result.status}")
    for request in result.interrupts:
        print(
            f"  pending {request['kind']} {request['id']}: {request['skill']} {json.dumps(request['args'], ensure_ascii=False)} ({request['reason']})"
        )
        print(
            f"  resume with: rolegraph resume {result.thread_id} --decision approve|reject --request-id {request['id']}"
        )
    if result.answer:
        print(f"answer: {result.answer}")
    print(f"audit: {result.audit_id}")
    return 0
