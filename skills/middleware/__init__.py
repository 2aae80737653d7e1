"""The links of the skill middleware chain, one small module each.

Every link is a callable with one signature,
`async def __call__(self, call: Call, next: Next) -> SkillResult`; the order
they run in is chosen in one place, `skills/runtime.py`.
"""
