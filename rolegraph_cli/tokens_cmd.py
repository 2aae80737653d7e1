"""`rolegraph tokens issue|revoke|list`: bearer tokens for the served graph."""

from __future__ import annotations

import argparse
import sys

from checkpoints.tokens import (
    Conn,
    TokenKind,
    TokenRecord,
    issue_token,
    list_tokens,
    revoke_token,
)
from nodes.domain import load_domain
from rolegraph_cli.common import open_project_database, run_command


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    tokens = subparsers.add_parser("tokens")
    commands = tokens.add_subparsers(dest="tokens_command", required=True, metavar="SUBCOMMAND")
    issue = commands.add_parser("issue", help="issue a token; prints the secret once")
    who = issue.add_mutually_exclusive_group(required=True)
    who.add_argument("--customer", metavar="USER_ID", help="a customer bound to this user id")
    who.add_argument("--operator", metavar="NAME", help="an operator (answers approvals)")
    issue.set_defaults(handler=lambda args: run_command(lambda: _issue(args)))
    revoke = commands.add_parser("revoke", help="revoke a token by id or id prefix")
    revoke.add_argument("token", metavar="TOKEN_ID_OR_PREFIX")
    revoke.set_defaults(handler=lambda args: run_command(lambda: _revoke(args.token)))
    commands.add_parser("list", help="tokens, newest first (no secrets)").set_defaults(
        handler=lambda args: run_command(_list)
    )


async def _issue(args: argparse.Namespace) -> int:
    kind: TokenKind = "customer" if args.customer is not None else "operator"
    subject = args.customer if args.customer is not None else args.operator
    records = load_domain().records
    async with open_project_database() as db, db.pool.connection() as conn:

        async def customer_exists(_conn: Conn, user_id: str) -> bool:
            return await records.customer_exists(db.pool, user_id)

        issued = await issue_token(conn, kind, subject, customer_exists=customer_exists)
    record = issued.record
    # The secret goes to stdout alone so `$(rolegraph tokens issue ...)` captures it;
    # what it is stays on stderr.
    print(f"issued token {record.token_id} for {record.kind}:{record.subject}", file=sys.stderr)
    print("it is shown only now; pass it as `Authorization: Bearer <token>`", file=sys.stderr)
    print(issued.secret)
    return 0


async def _revoke(token: str) -> int:
    async with open_project_database() as db, db.pool.connection() as conn:
        record = await revoke_token(conn, token)
    print(f"revoked token {record.token_id} of {record.kind}:{record.subject}")
    return 0


async def _list() -> int:
    async with open_project_database() as db, db.pool.connection() as conn:
        records = await list_tokens(conn)
    for record in records:
        print(_line(record))
    print(f"{len(records)} token(s)")
    return 0


def _line(record: TokenRecord) -> str:
    state = (
        "revoked " + record.revoked_at.isoformat(timespec="seconds")
        if record.revoked_at
        else "active"
    )
    used = record.last_used_at.isoformat(timespec="seconds") if record.last_used_at else "never"
    return (
        f"{record.token_id}  {record.kind}:{record.subject}  {state}"
        f"  created={record.created_at.isoformat(timespec='seconds')}  last_used={used}"
    )
