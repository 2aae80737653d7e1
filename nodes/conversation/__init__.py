"""Short-term memory of a thread: a bounded context (issue 9 §4).

When a thread's `messages` pass a share of its token budget, the turns
before the last few are compressed into a short summary and leave the state,
so a long conversation keeps a bounded checkpoint.
"""
