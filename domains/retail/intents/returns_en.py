"""English templates for ordinary requests about a delivered order: returns, exchanges and
where a refund stands; one group per intent."""

from __future__ import annotations

from domains.retail.intents.group import Group, group

RETURNS_EN: tuple[Group, ...] = (
    group(
        "plain",
        "return_items",
        """
        I want to return {order}
        return the {product} from {order}
        please return order {order}, {reason}
        I'd like to return the {product}
        return {order}
        start a return for {order}
        I need to send back the {product}
        send the {product} back, {reason}
        return the items in {order} to {payment}
        return {order} and refund it to {payment}
        I want to return my {product} because {reason}
        return everything in order {order}
        the {product} from {order} is broken, I want to return it
        please process a return for order {order}
        I received {order} but {reason}, return it
        return the {product} and give me my money back
        take back the {product} from {order}
        I'd like a return on {order}
        set up a return for the {product} I got
        return it, {reason}
        I want to send {order} back
        return the delivered order {order}
        return the {product} and the other item in {order}
        I got the {product} and {reason}, I want to return it
        please arrange a return for {order}
        return the {product} to my original payment method
        """,
    ),
    group(
        "plain",
        "exchange_items",
        """
        exchange the {product} in {order} for {option}
        I want to exchange my {product} for {option}
        swap the {product} for {option}
        can I get {option} of the {product} instead, I received the wrong one
        exchange {order}
        I'd like to exchange the items in {order}
        exchange the {product}, {reason}
        please exchange the {product} from {order} for {option}
        the {product} I received doesn't fit, exchange it for {option}
        I want a different {product}, {option}
        swap it for {option}
        exchange it for {option}
        trade the {product} in {order} for {option}
        exchange the delivered {product} for {option}
        I got the {product} but want {option}, exchange please
        replace my {product} with {option}
        exchange order {order} items for {option}
        do an exchange on {order}: {option}
        I'd like to swap my {product} for another model
        exchange the {product} for the same one in {option}
        I need to exchange {order} because {reason}
        the {product} arrived in the wrong colour, exchange it for {option}
        swap the {product} I got for {option}
        exchange my delivered order {order}
        I want {option} instead of the {product} I received
        start an exchange for the {product}
        the {product} came in the wrong size, I want to exchange it
        I'd like the {product} I received swapped for {option}
        I got my order {order} but want to trade the {product} for {option}
        exchange the {product} I got last week for {option}
        my {product} arrived, can I get {option} instead? it's delivered already
        please swap the delivered {product} in {order} for {option}
        I'd prefer {option}, exchange the {product} I received
        exchange both items in {order} for {option}
        """,
    ),
    group(
        "plain",
        "refund_status",
        """
        where is my refund?
        where's my refund for {order}?
        when will I get my refund?
        when will the refund for {order} arrive?
        how much was refunded for {order}?
        how much did you refund me?
        which card did my refund go to?
        has my refund been processed?
        status of my refund
        refund status for {order}
        I haven't received my refund yet
        where did the money for {order} go?
        did the refund for {order} go through?
        when does the refund hit my account
        is my refund on the way?
        check my refund for {order}
        I'm still waiting for the refund on {order}
        when will I see the money back for the {product}
        what's happening with my refund
        how long until my refund for {order} shows up
        was the refund sent to {payment}?
        my refund hasn't arrived
        is the refund for the {product} done?
        refund for {order} not received
        how much money am I getting back for {order}
        track my refund
        tell me where my refund for {order} is
        tell me how much you refunded for {order}
        I want to know when my refund arrives
        when will I get my money back?
        when do I get my money back for {order}
        where's my money for the returned {product}?
        """,
    ),
)
