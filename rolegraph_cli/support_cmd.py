"""`rolegraph run|resume|chat|inbox`: talk to the support graph."""

from __future__ import annotations

import argparse
import json
import os
import signal
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from checkpoints.errors import InvalidArgument
from graphs.api import RunReport, continue_thread, new_thread_id, resume_thread, run_request
from graphs.inbox import answerable_requests
from graphs.modes import DEFAULT_MODE, MODES, checked_mode, resolve_mode
from nodes.identity import Identity
from nodes.inputs import parse_args_json
from rolegraph_cli.common import open_project_database, run_command
from rolegraph_cli.inbox_serve import DEFAULT_HOST, DEFAULT_PORT, serve_inbox
from rolegraph_cli.session import Session, local_operator, open_session

if TYPE_CHECKING:
    from graphs.jobs import TurnRequest

DECISIONS = ("approve", "reject", "edit")
EXIT_FAILED = 1
"""Exit code of `run`/`resume` when the thread ended `failed` (bad input and faults exit 2)."""
_QUEUE_HELP = "hand the turn to a `rolegraph worker` and wait for its result"
_MODE_HELP = (
    f"execution mode: {' | '.join(MODES)} (default {DEFAULT_MODE}; a thread keeps the mode"
    " that started it)"
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = subparsers.add_parser("run")
    run.add_argument("text")
    run.add_argument("--user-id", required=True, help="the authenticated customer")
    run.add_argument(
        "--thread-id", help="add the turn to this thread's conversation (same customer)"
    )
    run.add_argument("--json", action="store_true", help="print one JSON object as the last line")
    run.add_argument("--queue", action="store_true", help=_QUEUE_HELP)
    run.add_argument("--mode", help=_MODE_HELP)
    run.set_defaults(handler=lambda a: run_command(lambda: _run(a)))
    resume = subparsers.add_parser("resume")
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
    resume.add_argument("--queue", action="store_true", help=_QUEUE_HELP)
    resume.add_argument("--mode", help=_MODE_HELP)
    resume.set_defaults(handler=lambda a: run_command(lambda: _resume(a)))
    inbox = subparsers.add_parser("inbox")
    inbox.add_argument(
        "--serve", action="store_true", help="serve the web approval inbox (operator tokens)"
    )
    inbox.add_argument("--host", help=f"with --serve (default {DEFAULT_HOST})")
    inbox.add_argument("--port", type=int, help=f"with --serve (default {DEFAULT_PORT})")
    inbox.set_defaults(handler=lambda a: run_command(lambda: _inbox_command(a)))
    chat = subparsers.add_parser("chat")
    chat.add_argument("--user-id", required=True)
    chat.set_defaults(handler=lambda a: run_command(lambda: _chat(a.user_id)))


async def _run(args: argparse.Namespace) -> int:
    mode = checked_mode(args.mode) if args.mode is not None else None
    thread_id = args.thread_id or new_thread_id()
    if not args.json:
        # Shown first, so a run that dies on the way can be continued by its id.
        began = "new turn" if args.thread_id else "started"
        print(
            f"thread {thread_id}: {began} (if it dies, `rolegraph resume {thread_id}` continues it)"
        )
    if args.queue:
        from graphs.jobs import TurnRequest

        request = TurnRequest.new_turn(args.text, args.user_id, _operator(), thread_id, mode)
        return await _queued(request, args.json)
    async with open_session(quiet=args.json, mode=args.mode, thread_id=thread_id) as s:
        result = await run_request(
            s.graph, s.ctx, text=args.text, user_id=args.user_id, thread_id=thread_id,
            actor=s.operator, on_step=None if args.json else _progress,
        )  # fmt: skip
    return _print(result, args.json)


async def _resume(args: argparse.Namespace) -> int:
    edited = _parse_args(args.args)
    if args.decision is None and (edited is not None or args.message or args.request_id):
        raise InvalidArgument("--args, --message and --request-id need a --decision")
    if args.queue:
        return await _queued(_resume_request(args, edited), args.json)
    async with open_session(quiet=args.json, mode=args.mode, thread_id=args.thread_id) as s:
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


async def _inbox_command(args: argparse.Namespace) -> int:
    if args.serve:
        host = DEFAULT_HOST if args.host is None else args.host
        return await serve_inbox(host, DEFAULT_PORT if args.port is None else args.port)
    if args.host is not None or args.port is not None:
        raise InvalidArgument("--host and --port need --serve")
    return await _inbox()


def _resume_request(args: argparse.Namespace, edited: dict[str, Any] | None) -> TurnRequest:
    from graphs.jobs import TurnRequest

    mode = checked_mode(args.mode) if args.mode is not None else None
    if args.decision is None:
        return TurnRequest.continue_crashed(args.thread_id, _operator(), mode)
    return TurnRequest.resume(
        args.thread_id, _operator(), args.decision,
        request_id=args.request_id, args=edited, message=args.message, mode=mode,
    )  # fmt: skip


async def _queued(request: TurnRequest, as_json: bool) -> int:
    """Submit the turn to the workers, wait, and print what the direct command prints."""
    # The queue's library is imported only by the commands that use it.
    from checkpoints.jobs import open_queue
    from graphs.jobs import run_queued

    async with open_project_database() as db, open_queue(db.pool) as queue:
        # A --mode the thread does not run in is refused here, as without --queue.
        await resolve_mode(db.checkpointer, request.thread_id, request.mode)
        done = await run_queued(queue, db.pool, request)
    if not as_json:
        for line in done.progress:
            print(f"  · {line}")
    return _print(done.report, as_json)


def _operator() -> Identity:
    return local_operator(os.environ)


async def _inbox() -> int:
    async with open_session(quiet=True) as s:
        items = await answerable_requests(s.graph, s.ctx.pool)
    now = datetime.now(UTC)
    for i in items:
        print(
            f"{i.thread_id}  {i.request_id}  {i.kind}  customer={i.customer or '-'}"
            f"  age={_age(now - i.created_at)}  {i.skill or '-'}  risk={i.risk or '-'}"
            f"  args={json.dumps(i.args, ensure_ascii=False)}  {i.reason}"
        )
    print(f"{len(items)} pending")
    return 0


def _age(delta: timedelta) -> str:
    seconds = max(int(delta.total_seconds()), 0)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


async def _chat(user_id: str) -> int:
    thread_id = new_thread_id()
    async with open_session() as s:
        print(f"rolegraph chat on thread {thread_id} — empty line, Ctrl-D or Ctrl-C to quit")
        while (text := _ask("you> ")) is not None:
            result = await run_request(
                s.graph, s.ctx, text=text, user_id=user_id, thread_id=thread_id,
                on_step=_progress,
            )  # fmt: skip
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
    while (line := _read_line(prompt)) is not None:
        if line:
            return line
    raise InvalidArgument(
        f"no answer given; thread {pending.thread_id} still waits: answer it with"
        f" `rolegraph resume {pending.thread_id} --decision ...`"
    )


def _ask(prompt: str) -> str | None:
    """One line from the terminal; None at an empty line or Ctrl-D."""
    return _read_line(prompt) or None


def _read_line(prompt: str) -> str | None:
    """One stripped line from the terminal; None at Ctrl-D. Ctrl-C ends the chat."""
    # asyncio's own SIGINT handler only cancels the running task, which a
    # blocking input() never notices: restore Python's so Ctrl-C raises here
    # (and `run_command` exits 130) instead of being swallowed, or worse,
    # read as an answer to an approval prompt.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        line = input(prompt).strip()
    except EOFError:
        return None
    except UnicodeDecodeError:
        raise InvalidArgument(
            "the input is not valid UTF-8; check the terminal's encoding (LANG=C.UTF-8)"
        ) from None
    except KeyboardInterrupt:
        print()
        raise
    finally:
        signal.signal(signal.SIGINT, previous)
    return line


def _parse_args(text: str | None) -> dict[str, Any] | None:
    return None if text is None else parse_args_json(text)


def _progress(node: str, update: dict[str, Any]) -> None:
    for line in update.get("trace") or []:
        print(f"  · {line}")


def _print(result: RunReport, as_json: bool) -> int:
    if as_json:
        print(json.dumps(result.to_json(), ensure_ascii=False, default=str))
        return EXIT_FAILED if result.status == "failed" else 0
    print(f"thread {result.thread_id}: {result.status}")
    if result.mode != DEFAULT_MODE:
        print(f"mode: {result.mode}")
    for request in result.interrupts:
        print(
            f"  pending {request['kind']} {request['id']}: {request['skill'] or '-'} {json.dumps(request['args'], ensure_ascii=False)} ({request['reason']})"
        )
        print(f"  resume with: {_resume_hint(result.thread_id, request)}")
    if result.answer:
        print(f"answer: {result.answer}")
    if result.question:
        print(
            f"  {result.question['kind']} question: answer it on this thread with"
            f" `rolegraph run --thread-id {result.thread_id} --user-id {result.user_id} TEXT`"
        )
    print(f"turn: {result.turn}")
    print(f"audit: {result.audit_id}")
    return EXIT_FAILED if result.status == "failed" else 0


def _resume_hint(thread_id: str, request: dict[str, Any]) -> str:
    decision = (
        '--decision reply --message "…"'
        if request["kind"] == "escalation"
        else "--decision approve|reject"
    )
    return f"rolegraph resume {thread_id} {decision} --request-id {request['id']}"
