"""Small building blocks of the reference data: unique ids and addresses."""

from __future__ import annotations

import random
from typing import Any

from domains.retail.storage.reference_catalog import CITIES, STREETS

JsonDict = dict[str, Any]


class IdMaker:
    """Unique random digit strings (item, product, order, tracking ids)."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._used: set[str] = set()

    def digits(self, count: int) -> str:
        while True:
            value = "".join(self._rng.choice("0123456789") for _ in range(count))
            if value[0] != "0" and value not in self._used:
                self._used.add(value)
                return value


def random_address(rng: random.Random) -> JsonDict:
    """A plausible US address from the reference vocabulary."""
    city, state, zip_prefix = rng.choice(CITIES)
    unit = rng.choice(("", f"Apt {rng.randint(1, 40)}", f"Suite {rng.randint(100, 999)}"))
    return {
        "address1": f"{rng.randint(10, 9999)} {rng.choice(STREETS)}",
        "address2": unit,
        "city": city,
        "country": "USA",
        "state": state,
        "zip": f"{zip_prefix}{rng.randint(0, 99):02d}",
    }
