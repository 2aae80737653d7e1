"""Role agents: a role node pursuing a goal task with a bounded tool-calling loop.

The loop is a LangGraph subgraph (`nodes.agent.graph`) invoked inside the role
node, so its steps are checkpointed under the parent thread: an approval
interrupt inside a tool call resumes exactly there. Every tool is one of the
role's whitelisted skills, called through the skill runtime.
"""
