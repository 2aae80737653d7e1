"""Prompt tokens of a role agent over a 20-turn conversation, against a naive agent.

One role (`ROLE`) holds every skill of the retail catalog: its permissions and
bindings are the union of the real role files', so its agent is offered 21
tools plus `load_skill` (the two identity lookups the domain keeps from models
are not offered). A scripted model (`Recorder`) plays the conversation of
`benchmarks.token_script`: for each turn the role agent's real loop
(`nodes.agent.graph`) pursues the turn's goal on the real context and
database, every tool call runs through the skill runtime, and the model
records every call exactly as it received it: the tool schemas bound and the
messages (stable prefix, turn, loaded skill instructions, the loop's steps).

The naive baseline (`benchmarks.token_naive`) is built from the same run: the
same calls less the loads, with every skill's full instructions and fully
described schema in every prompt and the whole conversation each turn. Both
sides are counted alike (`benchmarks.token_count`).

The stable-prefix share is what a provider's prefix cache could reuse. A
call's prompt is a sequence of units: its tool schemas, then each message
(in the OpenAI wire form). The units identical, in order from the start, to
the previous call's are its reused prefix; the share is reused tokens over all
prompt tokens, summed over every call of the conversation (the first call
reuses nothing, and a turn's first call reuses what its previous turn's last
call began with).

    .venv/bin/python -m benchmarks.bench_tokens
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.messages.ai import UsageMetadata
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from pydantic import Field

from benchmarks.table import Row, render, where_and_when
from benchmarks.token_count import Prompt, reused, tokens, units
from benchmarks.token_naive import naive_agent
from benchmarks.token_script import Subjects, Turn, calls_in, conversation, reply, subjects
from checkpoints.opening import Database, open_database
from checkpoints.scratch import scratch_database
from nodes.agent.graph import agent_graph
from nodes.agent.state import AgentState
from nodes.bootstrap import build_support_context, load_static_config
from nodes.context import SupportContext
from nodes.contracts import Task
from nodes.conversation.budget import count_tokens
from nodes.domain import load_domain
from nodes.models import ModelTiers
from nodes.state import TaskData, stored
from skills.roles import RoleSpec

ROLE = "desk"
RATIO_TARGET = 0.2
SHARE_TARGET = 0.9


class Recorder(BaseChatModel):
    """Replies from `script` in order and records every call's tools and messages.

    Each reply reports usage (its prompt counted as the benchmark counts it), so the
    agent's token bound and the ledger see what a real endpoint would report.
    """

    script: list[AIMessage] = Field(default_factory=list)
    prompts: list[Prompt] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "bench-recorder"

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """The tools go with every call, where `_generate` records them."""
        return cast(Runnable[LanguageModelInput, AIMessage], self.bind(tools=list(tools)))

    def _generate(self, messages: list[BaseMessage], *_: Any, **kwargs: Any) -> ChatResult:
        prompt = Prompt(tuple(kwargs.get("tools") or ()), tuple(messages))
        self.prompts.append(prompt)
        if not self.script:
            raise RuntimeError("bench_tokens: the agent asked the model more often than scripted")
        message = self.script.pop(0)
        read, out = tokens(prompt), count_tokens([message])
        message.usage_metadata = UsageMetadata(
            input_tokens=read, output_tokens=out, total_tokens=read + out
        )
        return ChatResult(generations=[ChatGeneration(message=message)])


@dataclass
class Played:
    """What the conversation's run left: each turn's prompts and loop steps."""

    prompts: list[list[Prompt]] = field(default_factory=list)
    steps: list[list[BaseMessage]] = field(default_factory=list)
    done: int = 0
    """Turns whose loop ended on the model's answer with its script used up."""
    failed_calls: int = 0


def desk_role(roles: Iterable[RoleSpec]) -> RoleSpec:
    """One role holding every skill the real roles hold, with their bindings and reads."""
    specs = list(roles)
    bindings = {b.skill_id: b for r in specs for b in r.skills}
    return RoleSpec.model_validate(
        {
            "name": ROLE,
            "description": "Answers any question about the customer's account, orders,"
            " shipments, products and our policies.",
            "model_tier": "small",
            "permissions": {
                "read": sorted({p for r in specs for p in r.read}),
                "execute": sorted({s for r in specs for s in r.execute}),
            },
            "skills": [bindings[s].model_dump() for s in sorted(bindings)],
        }
    )


async def play(db: Database, turns: Sequence[Turn], who: Subjects) -> Played:
    """Run every turn's goal through the role agent."""
    recorder = Recorder()
    registry, roles = load_static_config(load_domain("retail"))
    static = (registry, {**roles, ROLE: desk_role(roles.values())})
    ctx = await build_support_context(
        db.pool, env={}, static=static, models=ModelTiers(small=recorder)
    )
    played, run = Played(), uuid.uuid4().hex[:8]
    for n, turn in enumerate(turns):
        recorder.script = [reply(s) for s in turn.steps]
        before = len(recorder.prompts)
        end = await _pursue(ctx, turn, who, f"bench-tokens-{run}-{n}")
        played.prompts.append(recorder.prompts[before:])
        played.steps.append(list(end.get("messages") or []))
        played.done += end.get("stop") == "done" and not recorder.script
        played.failed_calls += sum(1 for c in end.get("calls") or [] if c["status"] != "succeeded")
    return played


async def _pursue(ctx: SupportContext, turn: Turn, who: Subjects, thread: str) -> AgentState:
    # A goal that may make changes, like the react front agent's: offered every skill held.
    task = Task(id="g1", role=ROLE, goal=turn.goal, changes=True)
    start = {
        "task": stored(task, TaskData),
        "user_id": who.user_id,
        "audit_id": f"aud-{thread}",
        "results": {},
    }
    config: Any = {"configurable": {"thread_id": thread}}
    return cast(AgentState, await agent_graph().ainvoke(start, config=config, context=ctx))


async def measure(db: Database) -> list[Row]:
    """Rows: our prompt tokens against the naive agent's, and the reused-prefix share.

    Counted on a scratch database of fresh reference data beside `db`: the prompts carry
    the benchmark customer's records, which a `make demo` cancel in `db` would change
    (the reused-prefix share read 89.6 % there against 90.2 % on fresh data)."""
    migrations = (load_domain("retail").migrations,)
    async with (
        scratch_database(db.target, "rg_bench_tokens") as target,
        open_database(target=target, migrations=migrations) as fresh,
    ):
        return await _counted(fresh)


async def _counted(db: Database) -> list[Row]:
    who = await subjects(db)
    turns = conversation(who)
    played = await play(db, turns, who)
    ours = [p for turn in played.prompts for p in turn]
    domain = load_domain("retail")
    registry, _ = load_static_config(domain)
    naive = naive_agent(ours, played.steps, turns, domain, registry)
    return rows(ours, naive, played, turns, len(list(registry)))


def rows(
    ours: Sequence[Prompt], naive: Sequence[Prompt], played: Played, turns: list[Turn], catalog: int
) -> list[Row]:
    """The benchmark's rows (see the module docstring for what is counted)."""
    mine, theirs = sum(map(tokens, ours)), sum(map(tokens, naive))
    share = reused(ours) / mine
    skills = f"{len(ours[0].tools) - 1} of the catalog's {catalog} skills"
    return [
        Row(
            f"role agent prompt tokens, {len(turns)}-turn conversation ({skills})",
            f"{mine:,}",
            f"{theirs:,} naive agent",
            f"{mine / theirs:.3f}x",
            f"target <= {RATIO_TARGET:.2f}x; {len(ours)} model calls vs {len(naive)};"
            f" {played.done}/{len(turns)} turns done, {played.failed_calls} of"
            f" {calls_in(turns)} skill calls failed",
        ),
        Row(
            "... share of them in the reused prompt prefix",
            f"{share:.1%}",
            note=f"target >= {SHARE_TARGET:.0%}; units identical to the previous call's prefix",
        ),
        Row(
            "... tool schemas in each of our calls",
            f"{units(ours[0])[0][1]:,}",
            f"{units(naive[0])[0][1]:,} naive agent",
            note=f"{len(ours[0].tools)} tools: names over open objects, arguments in the tool list",
        ),
    ]


async def main() -> None:
    async with open_database(migrations=(load_domain("retail").migrations,)) as db:
        rows = await measure(db)
    print(render(rows))
    print(f"\nMeasured {where_and_when()}; counted, not timed.")


if __name__ == "__main__":
    asyncio.run(main())
