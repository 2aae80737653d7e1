"""Loading tau2's published db.json and exporting it again is byte-exact."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
from psycopg.rows import DictRow

from checkpoints import outbox
from domains.retail.storage import (
    canonical_hash,
    canonical_json,
    export_canonical,
    fetch_order,
    fetch_product,
    fetch_user,
    fetch_variant,
    find_user_id_by_email,
    find_user_id_by_name_zip,
    list_product_types,
    load_tau2,
    table_counts,
)
from domains.retail.storage.models import OPTIONAL_ORDER_FIELDS

Conn = psycopg.AsyncConnection[DictRow]

TAU2_HASH = "b25c9cb211f5efcaee5dd646054a73c4a9f43f4f5acc32c10713cd9f9ac20e9c"


async def test_load_then_export_equals_the_canonical_file(conn: Conn, tau2_dir: Path) -> None:
    summary = await load_tau2(conn, tau2_dir / "db.json")
    assert (summary.products, summary.variants, summary.users, summary.orders) == (
        50,
        591,
        500,
        1000,
    )
    assert summary.hash == TAU2_HASH
    exported = await export_canonical(conn)
    assert canonical_hash(exported) == TAU2_HASH
    assert canonical_json(exported) == (tau2_dir / "db.canonical.json").read_text(encoding="utf-8")
    counts = await table_counts(conn)
    assert counts["orders"] == 1000 and counts["product_variants"] == 591
    assert counts["shipments"] == 577 and "notifications" not in counts
    assert sum((await outbox.status_counts(conn)).values()) == 0


async def test_entities_read_back_exactly_as_tau2_prints_them(conn: Conn, tau2_dir: Path) -> None:
    source = json.loads((tau2_dir / "db.json").read_text(encoding="utf-8"))
    for user_id, user in list(source["users"].items())[:40]:
        # Key order matters: skills return these dicts to the model as JSON.
        assert json.dumps(await fetch_user(conn, user_id)) == json.dumps(user)
    for order_id, order in list(source["orders"].items())[:80]:
        expected = {**order, **{f: None for f in OPTIONAL_ORDER_FIELDS}}
        assert json.dumps(await fetch_order(conn, order_id)) == json.dumps(expected)
    for product_id, product in source["products"].items():
        assert json.dumps(await fetch_product(conn, product_id)) == json.dumps(product)
        for item_id, variant in product["variants"].items():
            assert await fetch_variant(conn, item_id) == variant


async def test_duplicate_items_within_an_order_survive(conn: Conn, tau2_dir: Path) -> None:
    source = json.loads((tau2_dir / "db.json").read_text(encoding="utf-8"))
    duplicated = [
        o for o in source["orders"].values()
        if len({i["item_id"] for i in o["items"]}) < len(o["items"])
    ]  # fmt: skip
    assert duplicated
    for order in duplicated:
        fetched = await fetch_order(conn, order["order_id"])
        assert fetched is not None and fetched["items"] == order["items"]


async def test_lookups(conn: Conn, tau2_dir: Path) -> None:
    source = json.loads((tau2_dir / "db.json").read_text(encoding="utf-8"))
    user = next(iter(source["users"].values()))
    assert await find_user_id_by_email(conn, user["email"].upper()) == user["user_id"]
    name, zip_code = user["name"], user["address"]["zip"]
    found = await find_user_id_by_name_zip(
        conn, name["first_name"].lower(), name["last_name"].upper(), zip_code
    )
    assert found == user["user_id"]
    assert await find_user_id_by_email(conn, "nobody@example.invalid") is None
    assert (
        await find_user_id_by_name_zip(conn, name["first_name"], name["last_name"], "00000") is None
    )
    types = await list_product_types(conn)
    assert list(types) == sorted(p["name"] for p in source["products"].values())
    assert types == {p["name"]: p["product_id"] for p in source["products"].values()}
    assert await fetch_order(conn, "#W0") is None and await fetch_user(conn, "nobody") is None
    assert await fetch_product(conn, "0") is None and await fetch_variant(conn, "0") is None
