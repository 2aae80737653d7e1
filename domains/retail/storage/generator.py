"""The project's own deterministic reference data, loaded through the tau2 path.

The generator builds a tau2-format document (products, users, orders) from
a seed, validates it with the same models as a file, and loads it with the
same loader, so the format and the generator cannot drift apart. Same seed,
same hash.
"""

from __future__ import annotations

import itertools
import random
from datetime import datetime
from typing import Any

import psycopg
from psycopg.rows import DictRow

from domains.retail.storage.loader import LoadSummary, load_document
from domains.retail.storage.models import Tau2Document
from domains.retail.storage.reference_catalog import (
    CARD_BRANDS,
    FIRST_NAMES,
    LAST_NAMES,
    PRODUCT_SPECS,
)
from domains.retail.storage.reference_orders import generate_orders
from domains.retail.storage.reference_parts import IdMaker, random_address
from domains.retail.storage.tau2_format import parse_document
from domains.retail.storage.tracking import TRACKING_AS_OF

JsonDict = dict[str, Any]
USER_COUNT = 500
ORDER_COUNT = 1000


def reference_document(seed: int = 7) -> Tau2Document:
    """The validated reference document for `seed`."""
    rng = random.Random(seed)
    ids = IdMaker(rng)
    products = {p["product_id"]: p for p in (_product(rng, ids, spec) for spec in PRODUCT_SPECS)}
    users = _users(rng, ids)
    orders = generate_orders(rng, ids, products, users, ORDER_COUNT)
    data = {"products": products, "users": users, "orders": orders}
    return parse_document(data, source=f"reference data (seed {seed})")


async def generate_reference(
    conn: psycopg.AsyncConnection[DictRow], seed: int = 7, *, as_of: datetime = TRACKING_AS_OF
) -> LoadSummary:
    """Replace all retail data with the reference data for `seed`."""
    source = f"reference data (seed {seed})"
    return await load_document(conn, reference_document(seed), source=source, as_of=as_of)


def _product(
    rng: random.Random, ids: IdMaker, spec: tuple[str, float, dict[str, tuple[str, ...]]]
) -> JsonDict:
    name, base_price, options = spec
    combos = list(itertools.product(*options.values()))
    chosen = rng.sample(combos, min(len(combos), rng.randint(4, 16)))
    variants: JsonDict = {}
    for combo in chosen:
        item_id = ids.digits(10)
        variants[item_id] = {
            "item_id": item_id,
            "options": dict(zip(options, combo, strict=True)),
            "available": rng.random() < 0.8,
            "price": round(base_price * rng.uniform(0.8, 1.35), 2),
        }
    return {"name": name, "product_id": ids.digits(10), "variants": variants}


def _users(rng: random.Random, ids: IdMaker) -> dict[str, JsonDict]:
    users: dict[str, JsonDict] = {}
    emails: set[str] = set()
    while len(users) < USER_COUNT:
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        email = f"{first}.{last}{rng.randint(100, 9999)}@example.org".lower()
        if email in emails:
            continue
        emails.add(email)
        user_id = f"{first.lower()}_{last.lower()}_{ids.digits(4)}"
        users[user_id] = {
            "user_id": user_id,
            "name": {"first_name": first, "last_name": last},
            "address": random_address(rng),
            "email": email,
            "payment_methods": _payment_methods(rng, ids),
            "orders": [],
        }
    return users


def _payment_methods(rng: random.Random, ids: IdMaker) -> dict[str, JsonDict]:
    kinds = rng.sample(("credit_card", "paypal", "gift_card"), rng.choice((1, 1, 1, 2, 2, 3)))
    methods: dict[str, JsonDict] = {}
    for kind in kinds:
        method: JsonDict = {"source": kind, "id": f"{kind}_{ids.digits(7)}"}
        if kind == "credit_card":
            method["brand"] = rng.choice(CARD_BRANDS)
            method["last_four"] = f"{rng.randint(0, 9999):04d}"
        elif kind == "gift_card":
            method["balance"] = (
                float(rng.randint(0, 250)) if rng.random() < 0.5 else round(rng.uniform(0, 250), 2)
            )
        methods[method["id"]] = method
    return methods
