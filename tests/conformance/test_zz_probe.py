import os
from graphs.api import run_request
from tests.conformance.test_instructions import subjects, fill

async def test_probe(support):
    v = await subjects(support.db.pool)
    for i, t in enumerate(os.environ["PROBE"].split("||")):
        r = await run_request(support.graph, support.ctx, text=fill(t, v), user_id=v["user_id"], thread_id=f"p{i}")
        print("\n", t, r.status, r.intents, r.interrupts, "\nANSWER:", r.answer, "\n", "\n".join(r.trace))
