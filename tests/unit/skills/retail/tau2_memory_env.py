"""An in-memory tau2 retail environment over the pure operations (test helper).

It plays the role of the reference implementation's `RetailTools` so the pure
semantics can be checked against the recorded outputs and hashes without a
database.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from domains.retail.tools import lookups, order_ops
from domains.retail.tools.calculator import calculate
from domains.retail.tools.documents import canonical_order


class MemoryRetail:
    """tau2 tools over a canonical db dict; writes replace whole documents."""

    def __init__(self, db: dict[str, Any]) -> None:
        self.db = db

    def db_hash(self) -> str:
        return hashlib.sha256(json.dumps(self.db, sort_keys=True, default=str).encode()).hexdigest()

    def call(self, name: str, args: dict[str, Any]) -> Any:
        """The tool's output: a string, or a document for dict-returning tools."""
        users, orders, products = self.db["users"], self.db["orders"], self.db["products"]
        reads = {
            "find_user_id_by_email": lambda: lookups.find_user_id_by_email(users, args["email"]),
            "find_user_id_by_name_zip": lambda: lookups.find_user_id_by_name_zip(
                users, args["first_name"], args["last_name"], args["zip"]
            ),
            "get_order_details": lambda: lookups.get_order(orders, args["order_id"]),
            "get_user_details": lambda: lookups.get_user(users, args["user_id"]),
            "get_product_details": lambda: lookups.get_product(products, args["product_id"]),
            "get_item_details": lambda: lookups.get_item(products.values(), args["item_id"]),
            "list_all_product_types": lambda: lookups.list_all_product_types(products.values()),
            "calculate": lambda: calculate(args["expression"]),
            "transfer_to_human_agents": lambda: "Transfer successful",
        }
        if name in reads:
            return reads[name]()
        return self._write(name, args)

    def _write(self, name: str, args: dict[str, Any]) -> Any:
        if name == "modify_user_address":
            user = lookups.get_user(self.db["users"], args["user_id"])
            change = order_ops.modify_user_address(user, args)
        else:
            change = self._order_write(name, args)
        if change.user is not None:
            self.db["users"][change.user["user_id"]] = change.user
        if change.order is not None:
            self.db["orders"][change.order["order_id"]] = change.order
            return change.order
        return change.user

    def _order_write(self, name: str, args: dict[str, Any]) -> order_ops.Change:
        order = lookups.get_order(self.db["orders"], args["order_id"])
        user = self.db["users"][order["user_id"]]
        products = self.db["products"]
        swap = (args.get("item_ids", []), args.get("new_item_ids", []))
        pm = args.get("payment_method_id", "")
        match name:
            case "cancel_pending_order":
                return order_ops.cancel_pending_order(order, user, args["reason"])
            case "modify_pending_order_address":
                return order_ops.modify_pending_order_address(order, args)
            case "modify_pending_order_payment":
                return order_ops.modify_pending_order_payment(order, user, pm)
            case "modify_pending_order_items":
                return order_ops.modify_pending_order_items(order, user, products, swap, pm)
            case "return_delivered_order_items":
                return order_ops.return_delivered_order_items(order, user, swap[0], pm)
            case "exchange_delivered_order_items":
                return order_ops.exchange_delivered_order_items(order, user, products, swap, pm)
        raise KeyError(name)


def load_canonical(path: Any) -> dict[str, Any]:
    return canonical_db(json.loads(path.read_text()))


def canonical_db(db: dict[str, Any]) -> dict[str, Any]:
    db["orders"] = {key: canonical_order(order) for key, order in db["orders"].items()}
    return db
