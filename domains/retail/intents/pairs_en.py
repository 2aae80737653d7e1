"""English templates for the confusable pairs of LABELS.md: where-is-my-order (status and
tracking), lateness with tracking, a refund that is a return, where a refund is, and
reading all of one's orders (not a bulk change)."""

from __future__ import annotations

from domains.retail.intents.group import Group, group

PAIRS_EN: tuple[Group, ...] = (
    group(
        "where_order",
        "order_status track_shipment",
        """
        where is my order?
        where is my order {order}?
        where's order {order}
        where is {order}?
        wheres my order
        where is my {product} order?
        where's my order at?
        do you know where my order is
        can you tell me where order {order} is
        where is my last order?
        where exactly is my order right now?
        any idea where {order} is?
        where did my order go?
        where's {order} now
        {order} where is it?
        where is the order I placed last week?
        what's going on with my order, where is it?
        my order, where is it now?
        """,
    ),
    group(
        "lateness",
        "delay_complaint track_shipment",
        """
        what's the ETA and was it late?
        it's late, where is it?
        {order} is late, when will it arrive?
        my package is overdue, where is it now?
        why is {order} late and when will it get here?
        the {product} is delayed, what's the new delivery date?
        it should have been here yesterday, can I get the tracking number?
        was {order} late? and when does it arrive
        my order is overdue, where is the package right now?
        this is taking forever, what's the tracking number?
        it's a week late, when can I expect it?
        {order} is delayed, who is the carrier?
        why the delay on {order} and what's the ETA
        """,
    ),
    group(
        "return_refund",
        "return_items",
        """
        refund order {order} to my card
        refund {order} to {payment}
        I want a refund for the {product} I received
        refund the {product}, {reason}
        return it and refund me
        return {order} and give me a refund
        I want my money back for {order}
        give me a refund for {order}, it arrived broken
        refund me for the {product} from {order}
        I'd like to return {order} for a full refund
        please refund the {product}, I don't want it
        send it back and refund my {payment}
        I want a refund, the {product} I got is broken
        refund the {product} I received to {payment}
        money back for {order} please, {reason}
        I received {order} and want to get refunded
        please refund my {product}, it was delivered yesterday
        """,
    ),
    group(
        "refund_where",
        "refund_status",
        """
        where is my refund for the {product}?
        where's the refund for {order}
        the refund still isn't in my account, where is it?
        I returned {order}, where's my money?
        when do I get the refund for the returned {product}?
        how much did I get back for {order}?
        which payment method was the refund for {order} sent to?
        """,
    ),
    group(
        "all_read",
        "order_status",
        """
        show me all my orders
        list all of my orders
        what's the status of all my orders?
        what are all the orders on my account
        how are all my orders doing
        give me an overview of every order I have
        can you show every order I've placed?
        what's the state of each of my orders?
        list every order on my account with its status
        I want to see all of my orders
        which of all my orders have shipped?
        are all my orders delivered?
        give me a list of all my past orders
        show all my pending orders
        what are all my open orders?
        check all my orders for me
        """,
    ),
)
