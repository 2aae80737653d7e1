"""English templates for ordinary requests about an order on its way: its status, tracking,
lateness, cancelling and changing it; one group per intent."""

from __future__ import annotations

from domains.retail.intents.group import Group, group

ORDERS_EN: tuple[Group, ...] = (
    group(
        "plain",
        "order_status",
        """
        how much did I pay for the {product}?
        what did the {product} cost me in the end?
        how much was order {order} all in, with tax?
        what was the total on {order} after the coupon?
        I need the price I paid for the {product} for an expense report
        which card did I pay for {order} with?
        what payment method did I use on my {product} order?
        was {order} charged to {payment}?
        what size did I order the {product} in?
        which colour did I pick for the {product} in {order}?
        is the {product} I ordered the {option} one? I can't remember
        remind me which version of the {product} I bought
        what address is {order} going to?
        which address did I put on {order}? I just moved
        how many items are in {order}, one or two?
        what's the order number for the {product} I bought yesterday?
        when did I place order {order}?
        what date did I order the {product}?
        what have I bought this year?
        list everything I ordered since January
        pull up my {product} order, I need the receipt for the warranty
        what's on my {product} order exactly?
        can you confirm the item count and price on {order}
        which of my orders have the {product} in them?
        """,
    ),
    group(
        "plain",
        "order_status",
        """
        what's the status of {order}?
        status of order {order}
        can you check the status of my order {order}
        has {order} shipped yet?
        has my order shipped?
        is {order} still pending?
        what's in order {order}?
        what did I order in {order}?
        which items are in {order}
        what are my orders?
        what orders do I have?
        show me my recent orders
        list my orders please
        what's going on with {order}
        any update on order {order}?
        is my order {order} processed?
        what state is {order} in
        check order {order} for me
        I'd like to know the status of {order}
        is {order} delivered?
        was my order {order} delivered already?
        has the {product} order been processed?
        what happened to my order {order}?
        did my order go through?
        how is my order {order} doing
        tell me about order {order}
        look up {order} please
        is {order} pending or processed?
        order {order} status?
        what's the current state of my {product} order
        tell me the status of {order}
        I want to know what's in {order}
        tell me what my orders are
        """,
    ),
    group(
        "plain",
        "track_shipment",
        """
        where is my package?
        where's my parcel for {order}
        when will {order} arrive?
        when is my {product} going to arrive?
        what's the ETA for {order}?
        eta on {order}?
        can I get the tracking number for {order}
        give me the tracking number please
        which carrier is delivering {order}?
        what's the last scan on my package
        track {order}
        track my package
        can you track order {order} for me
        where's the shipment for {order} right now
        when should I expect my delivery?
        how long until {order} gets here
        expected delivery date for {order}?
        when does my {product} get delivered
        what's the tracking info on {order}
        who is the courier for my order {order}
        is my package out for delivery?
        where is the package with my {product}?
        I need the tracking link for {order}
        when will the {product} be here
        delivery date for order {order}
        how many days until my parcel arrives
        where's the box with my {product} at
        show me the shipping updates for {order}
        what's the estimated arrival of {order}
        has the courier picked up {order}? where is it now
        tell me when {order} will arrive
        tell me where my package is
        I want to know when my {product} arrives
        where's my parcel at?
        where is the shipment right now
        which courier has my {product}?
        what city is my package in now?
        can you check the delivery status of {order}
        what day will {order} be delivered?
        """,
    ),
    group(
        "plain",
        "delay_complaint",
        """
        my order {order} is late
        {order} still hasn't arrived
        my package is late, why?
        why is {order} taking so long?
        it's been two weeks and my {product} hasn't come
        the delivery is overdue
        {order} was supposed to arrive last week
        why hasn't my order arrived yet?
        my {product} is delayed again
        this delivery is way late
        the parcel for {order} never showed up on time
        why is my shipment delayed?
        was {order} delivered late?
        did my order arrive late?
        my order is running late, what happened
        still waiting for {order}, it's overdue
        it should have been here days ago
        {order} missed the delivery date
        why is the delivery so slow?
        my package is stuck and late
        you promised delivery by friday and it's not here
        the {product} I ordered is late
        order {order} is delayed, what's going on?
        why is it late
        delivery for {order} is late by a week
        I've been waiting forever for my {product}
        my order hasn't shown up and it's past the date
        why was {order} late?
        late delivery on {order}
        my stuff still isn't here, it's late
        my parcel got lost, it never came
        {order} never arrived
        I never received my {product}
        the package should be here by now and it isn't
        the courier is days behind on {order}
        my delivery keeps getting pushed back
        I was promised it by the weekend, still nothing
        {order} is stuck in transit for a week now
        why does shipping take so long for {order}
        it's past the delivery window for my {product}
        """,
    ),
    group(
        "plain",
        "cancel_order",
        """
        cancel {order}
        cancel order {order}
        please cancel my order {order}
        I want to cancel {order}
        cancel my {product} order
        cancel it
        I need to cancel order {order} because {reason}
        cancel {order}, {reason}
        I'd like to cancel {order}
        please cancel the order {order}
        cancel the {product}, {reason}
        go ahead and cancel {order}
        kill order {order}
        scrap my order {order}
        I don't want {order} anymore, cancel it
        cancel the whole order {order}
        I want my order {order} cancelled
        just cancel {order}
        cancel my pending order {order}
        stop order {order}, I don't want it
        cancel that order please
        I changed my mind, cancel {order}
        cancel {order} right away
        please void order {order}
        I'd like order {order} cancelled, {reason}
        cancel the pending order
        get rid of order {order}, cancel it
        cancel my last order
        """,
    ),
    group(
        "plain",
        "modify_order",
        """
        change the shipping address of {order} to {address}
        update the address on order {order} to {address}
        ship {order} to {address} instead
        please change the delivery address for {order} to {address}
        switch the payment on {order} to {payment}
        pay for {order} with {payment} instead
        change the payment method of {order} to {payment}
        change the {product} in {order} to {option}
        swap the item in my pending order {order} for {option}
        modify order {order}: I want {option} of the {product}
        I need to change the size in {order} to {option}
        update {order} so it ships to {address}
        change my order {order}, the address should be {address}
        use {payment} for order {order}
        the {product} in {order} should be {option}, please change it before it ships
        edit order {order} and change the address to {address}
        correct the address on {order} to {address}
        I entered the wrong address on {order}, it should be {address}
        modify my pending order {order}
        change the item options on {order} before it ships
        can the {product} in my unshipped order be {option} instead
        switch {order} to {option} of the {product}
        change {order} to use {payment}
        put {order} on {payment}
        deliver order {order} to {address}
        send {order} to {address} instead of my old place
        change the color of the {product} in {order} to {option} since it hasn't shipped
        update the payment for my pending order to {payment}
        {order} hasn't shipped yet, please change the {product} to {option}
        before {order} ships, switch it to {option}
        I just placed {order}, can the address be {address} instead
        change the payment for {order} to {payment} before it's charged
        my pending order {order} needs to go to {address}
        update the item in {order} to {option}, it's still pending
        I made a mistake on {order}, use {payment} instead
        the order I just placed should ship to {address}
        """,
    ),
)
