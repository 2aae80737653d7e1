"""English templates for wording families the learned reader misread on the tuning split:
whereabouts asked in other words, a condition before a read, fit and colour as reasons to
exchange (not return), a change to an order not yet shipped, a lateness told as a story,
an e-mail asked for with a trigger, and things named only in passing."""

from __future__ import annotations

from domains.retail.intents.group import group

FAMILIES_EN = (
    group(
        "plain",
        "track_shipment",
        """
        where is it now?
        where's my {product} right now
        only tell me its location
        tell me where the package is
        where is the {product} at the moment
        what's the tracking number? I'll check it myself
        give me the tracking number so I can follow it
        which carrier is delivering it?
        who is delivering my {product}?
        tell me when it will get here
        tell me when the {product} arrives
        when does it get here?
        what's the last scan on it?
        where is the parcel at right now?
        give me the tracking info for it
        """,
    ),
    group(
        "plain",
        "track_shipment",
        """
        in case it has shipped, say where it is now
        if it's already shipped just give me the tracking number
        if it's on its way, tell me when it arrives
        if {order} already went out, where is it now?
        if it shipped, which carrier has it?
        """,
    ),
    group(
        "plain",
        "refund_status",
        """
        if the refund is still pending, when will it be paid?
        if you already refunded {order}, how much was it?
        if the refund was issued, where did the money go?
        if my refund is done, tell me when it reaches my card
        """,
    ),
    group(
        "condition",
        "exchange_items",
        """
        if the {product} was delivered, trade it for {option}
        if it's been delivered, swap the {product} for {option}
        if they came already, exchange them for {option}
        if the {product} is already here, I'd like {option} instead
        """,
    ),
    group(
        "condition",
        "modify_order",
        """
        if {order} is not out yet, put {option} of the {product} in it instead
        if it's not out yet, change the {product} on {order} to {option}
        if {order} is still pending, make the {product} {option} instead
        """,
    ),
    group(
        "plain",
        "exchange_items",
        """
        the {product} I received is too small, could I have {option}?
        the {product} is too big, I need {option}
        the {product} doesn't fit, swap it for {option}
        wrong size, I'd like {option} instead of the one I received
        the {product} came yesterday but I want {option}
        they don't fit, can I get them in {option}?
        I received the {product} and it's too tight, can I swap for {option}
        the colour of the {product} I got is wrong, I want {option}
        """,
    ),
    group(
        "plain",
        "modify_order",
        """
        {order} hasn't shipped yet, change the {product} to {option}
        can the {product} in {order} be {option} instead? it hasn't shipped
        before {order} ships, make the {product} {option}
        it's not shipped yet, so switch the {product} to {option}
        on {order} I picked the wrong size, make it {option} before it ships
        """,
    ),
    group(
        "plain",
        "delay_complaint",
        """
        the {product} never showed up, it was meant to come on tuesday
        it was supposed to arrive on friday
        this should have arrived last week, what is the hold-up?
        my {product} was due last week and it's still not here
        I'm still waiting on the {product}, it's overdue
        still nothing, the {product} was meant to arrive yesterday
        it was supposed to be here by now
        why is it taking so long? it was due days ago
        """,
    ),
    group(
        "plain",
        "return_items",
        """
        return the {product}, it keeps buzzing. it came a few days ago
        I'd like to return the {product}, it was delivered on sunday and it smells odd
        take back the {product} and refund me, it arrived on monday and it's faulty
        I got the {product} last week, it stopped working, I want my money back
        """,
    ),
    group(
        "plain",
        "notify",
        """
        is it possible to get a mail once my refund is paid out
        I'd like an email once the refund is processed
        drop me an email as soon as the money for {order} is refunded
        send me a text message the moment it leaves the depot
        send me a text when it ships
        message me when the refund is done
        can I get an e-mail when the {product} ships?
        notify me once the refund has been processed
        """,
    ),
    group(
        "plain",
        "cancel_order",
        """
        cancel the other one
        the other order, cancel that one
        no, cancel the other order
        not that one, cancel the other
        """,
    ),
    group(
        "plain",
        "update_account",
        """
        can anyone on your side set my account's default address to {address}
        can someone change my account address to {address}
        could somebody update my profile address
        """,
    ),
    group(
        "off_topic",
        "out_of_scope",
        """
        compose a poem about a {product}
        tell me a joke about a {product}
        write a song about my {product}
        make up a story about a {product}
        """,
    ),
    group(
        "withdrawal",
        "out_of_scope",
        """
        drop the return idea, the {product} stays with me
        forget the exchange, I'll keep it
        I'll keep the {product} after all, no return
        forget about the cancellation, I still want it
        """,
    ),
)
