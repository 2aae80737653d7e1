"""`python -m chaos [--sample] [--only CATEGORY ...]`: run the campaign, print one line per category.

Exit status 1 when any bad count (duplicated, lost, stuck, crashes,
unauthorized, leaks, escalations) is above zero.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from chaos import escalation, hostile, kill9, model_faults, pg_faults, smtp_faults
from chaos.scratch import Scratch
from chaos.tally import Tally, summary

Runner = Callable[..., Tally]
CATEGORIES: dict[str, Runner] = {
    "kill9": kill9.run,
    "smtp": smtp_faults.run,
    "postgres": pg_faults.run,
    "model": model_faults.run,
    "hostile": hostile.run,
    "escalation": escalation.run,
}


def campaign(names: list[str], *, sample: bool, verbose: bool = True) -> list[Tally]:
    """Run the named categories on fresh scratch databases; return their tallies."""
    scratch = Scratch.open()
    tallies: list[Tally] = []
    try:
        for name in names:
            started = time.monotonic()
            tally = CATEGORIES[name](scratch, sample=sample)
            tallies.append(tally)
            if verbose:
                _details(tally, time.monotonic() - started)
    finally:
        scratch.close()
    return tallies


def _details(tally: Tally, seconds: float) -> None:
    print(f"== {tally.category}: {tally.tried} case(s) in {seconds:.0f}s", flush=True)
    for failure in tally.failures:
        print(f"   {failure.case}: {'; '.join(failure.notes)[:400]}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m chaos", description=__doc__)
    parser.add_argument("--sample", action="store_true", help="the small fixed sample only")
    parser.add_argument("--only", action="append", choices=list(CATEGORIES), help="repeatable")
    args = parser.parse_args(argv)
    tallies = campaign(args.only or list(CATEGORIES), sample=args.sample)
    print("\n" + summary(tallies))
    return 1 if any(t.bad_total() for t in tallies) else 0


if __name__ == "__main__":
    sys.exit(main())
