"""English templates for ordinary single-intent requests about orders, one group per intent."""

from __future__ import annotations

from domains.retail.intents.group import Group, group

ORDERS_EN: tuple[Group, ...] = (
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
