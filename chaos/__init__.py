"""`make chaos`: the fault and abuse campaign of issue 7 §8.

One module per category (kill9, smtp, postgres, model, hostile, escalation),
one shared `Tally`, one summary line per category. Not part of the wheel: it
drives the project from outside, through its CLI, Python API and served graph.
"""
