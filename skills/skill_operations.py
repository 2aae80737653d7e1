"""What each reference skill does to which resource: the one table the
permission matrix is cross-checked against.

A skill listed here with no operations is pure computation (it sees only its
arguments). A skill missing from the table cannot be granted to a role.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from skills.resources import Operation, execute, read, write

_USERS, _ORDERS, _PRODUCTS = "db://users", "db://orders", "db://products"
_SHIPMENTS, _NOTIFICATIONS = "db://shipments", "db://notifications"


def _ops(*operations: Operation) -> frozenset[Operation]:
    return frozenset(operations)


RETAIL_SKILL_OPERATIONS: Mapping[str, frozenset[Operation]] = MappingProxyType(
    {
        # read
        "find_user_id_by_email_v1": _ops(read(_USERS)),
        "find_user_id_by_name_zip_v1": _ops(read(_USERS)),
        "get_user_details_v1": _ops(read(_USERS)),
        "get_order_details_v1": _ops(read(_ORDERS)),
        "get_product_details_v1": _ops(read(_PRODUCTS)),
        "get_item_details_v1": _ops(read(_PRODUCTS)),
        "list_all_product_types_v1": _ops(read(_PRODUCTS)),
        "track_shipment_v1": _ops(read(_SHIPMENTS)),
        "calculate_eta_v1": _ops(read(_SHIPMENTS)),
        "detect_delay_pattern_v1": _ops(read(_SHIPMENTS)),
        "search_knowledge_v1": _ops(
            read("kb://faq"), read("kb://return_policy"), read("kb://shipping_policy")
        ),
        "faq_cache_lookup_v1": _ops(read("kb://faq")),
        # write
        "cancel_pending_order_v1": _ops(read(_ORDERS), write(_ORDERS)),
        "modify_pending_order_address_v1": _ops(read(_ORDERS), write(_ORDERS)),
        "modify_pending_order_items_v1": _ops(read(_ORDERS), write(_ORDERS), read(_PRODUCTS)),
        "modify_pending_order_payment_v1": _ops(read(_ORDERS), write(_ORDERS), read(_USERS)),
        "modify_user_address_v1": _ops(read(_USERS), write(_USERS)),
        "return_delivered_order_items_v1": _ops(read(_ORDERS), write(_ORDERS), read(_USERS)),
        "exchange_delivered_order_items_v1": _ops(
            read(_ORDERS), write(_ORDERS), read(_PRODUCTS), read(_USERS)
        ),
        "send_notification_v1": _ops(execute("tool://send_notification"), write(_NOTIFICATIONS)),
        # compute and human
        "calculate_v1": _ops(),
        "generate_summary_v1": _ops(),
        "transfer_to_human_agents_v1": _ops(execute("tool://human_handoff")),
    }
)
