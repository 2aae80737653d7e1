"""English templates for speech acts LABELS.md tells apart: a question about a state
("was it cancelled?" is a read), an indirect request and a condition (both the write)."""

from __future__ import annotations

from domains.retail.intents.group import Group, group

ACTS_EN: tuple[Group, ...] = (
    group(
        "question_state",
        "order_status",
        """
        was {order} cancelled?
        was my order cancelled?
        did you cancel {order}?
        is {order} cancelled already?
        has {order} been cancelled yet
        did the cancellation of {order} go through?
        has my return for {order} been processed?
        did the return go through?
        was the {product} returned?
        has the exchange for {order} gone through?
        did my exchange get approved?
        was the address on {order} changed?
        did the address change on {order} work?
        did you update the payment on {order}?
        is {order} modified now?
        has it shipped?
        has {order} been returned yet?
        did the cancel work?
        so is it cancelled or not?
        was the exchange done?
        is my return complete?
        did {order} get cancelled by mistake?
        is the cancellation confirmed for {order}?
        was the item in {order} swapped?
        was my exchange processed?
        has my exchange been processed yet?
        was my return accepted?
        did the return for the {product} get processed?
        has the address change for {order} been done?
        is the exchange for {order} complete?
        I asked you to cancel {order} yesterday, did that go through?
        I asked to cancel {order} earlier, is it done?
        I requested a return for the {product} last week, any news?
        I sent back the {product}, has the return been received?
        the exchange I asked for, is it done?
        the cancellation I requested for {order}, did it work?
        what happened with my request to cancel {order}?
        did my cancellation work?
        is {order} already cancelled or still pending?
        you said you'd cancel {order}, did you?
        I changed the address on {order} yesterday, did it stick?
        any update on the return I started for {order}?
        did the exchange of my {product} get approved yet?
        so was the payment on {order} switched?
        is my return request for {order} still open?
        just checking, was {order} cancelled?
        """,
    ),
    group(
        "question_state",
        "refund_status",
        """
        has the refund gone through?
        did the refund for {order} go through?
        was I refunded for {order}?
        did you refund me yet?
        has my money been refunded?
        was the refund issued?
        is the refund done for {order}?
        did I get refunded for the {product}?
        did you refund my card for the {product}?
        did u refund me for {order}
        have you refunded {order} yet?
        was the money for the {product} refunded to {payment}?
        I returned the {product} last week, has the refund gone through?
        you said you'd refund {order}, did you?
        """,
    ),
    group(
        "indirect",
        "cancel_order",
        """
        could you cancel {order}?
        can you cancel {order} for me?
        would you mind cancelling order {order}?
        is it possible to cancel {order}?
        can you please cancel my order
        could you cancel it please
        would you be able to cancel {order}
        I was wondering if you could cancel {order}
        any chance you can cancel {order}?
        can I cancel {order}? {reason}
        I don't want it anymore, cancel it
        I don't need the {product} anymore, can you cancel it?
        mind cancelling that order for me?
        can we cancel {order}
        """,
    ),
    group(
        "indirect",
        "return_items",
        """
        could you return the {product} for me?
        can you help me return {order}?
        would it be possible to return the {product} from {order}?
        can I return {order}? {reason}
        is it possible to send back the {product} I got?
        could you set up a return for {order}
        can you process a return for the {product}?
        would you return {order} please
        """,
    ),
    group(
        "indirect",
        "exchange_items",
        """
        could you exchange the {product} for {option}?
        can you swap my {product} for {option}?
        would it be possible to exchange {order} for {option}?
        is it possible to get {option} of the {product} I received instead?
        could I exchange the {product} from {order}?
        can you help me exchange my {product}
        """,
    ),
    group(
        "indirect",
        "modify_order",
        """
        could you change the address on {order} to {address}?
        can you switch {order} to {payment}?
        would you be able to ship {order} to {address} instead?
        is it possible to change the {product} in {order} to {option} before it ships?
        can you update the payment for {order}?
        could you modify my pending order {order}?
        """,
    ),
    group(
        "indirect",
        "update_account",
        """
        could you update my default address to {address}?
        can you change the address on my account to {address}?
        would you mind updating my profile address?
        """,
    ),
    group(
        "indirect",
        "notify",
        """
        could you email me the details?
        can you send me an e-mail when it ships?
        would you mind emailing me a summary?
        """,
    ),
    group(
        "condition",
        "cancel_order",
        """
        if {order} hasn't shipped yet, cancel it
        cancel {order} if it's still pending
        if it hasn't gone out, please cancel it
        if my order is not shipped yet then cancel it
        if {order} is still processing, cancel it
        cancel {order}, but only if it hasn't shipped
        in case {order} hasn't shipped, cancel it please
        if it's not too late, cancel {order}
        if you can still stop {order}, cancel it
        should {order} still be pending, cancel it
        if it's pending cancel it
        cancel it as long as it hasn't shipped
        """,
    ),
    group(
        "condition",
        "modify_order",
        """
        if {order} hasn't shipped, change the address to {address}
        if it's still pending, switch the payment to {payment}
        change the {product} in {order} to {option} if it hasn't shipped yet
        if it's not shipped yet, send it to {address} instead
        if {order} is still pending, pay with {payment}
        """,
    ),
    group(
        "condition",
        "return_items",
        """
        if {order} has been delivered, return it
        if the {product} arrived damaged, I want to return it
        once it's delivered, return the {product}
        if {order} is delivered please start a return
        return the {product} if it's already been delivered
        """,
    ),
    group(
        "condition",
        "exchange_items",
        """
        if the {product} is delivered, exchange it for {option}
        if it doesn't fit when it arrives, exchange it for {option}
        exchange {order} for {option} if it was delivered
        """,
    ),
    group(
        "condition",
        "notify",
        """
        if {order} ships today, email me
        email me if the refund goes through
        if anything changes on {order}, send me an e-mail
        """,
    ),
)
