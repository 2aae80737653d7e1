"""English templates for the account, notification, policy, product, hand-off, bulk and
out-of-scope intents."""

from __future__ import annotations

from domains.retail.intents.group import Group, group

SERVICE_EN: tuple[Group, ...] = (
    group(
        "plain",
        "update_account",
        """
        change my default address to {address}
        update my account address to {address}
        my address has changed, it's now {address}
        please update the address on my profile to {address}
        I moved, my new address is {address}
        set my default shipping address to {address}
        change the address on my account
        update my home address in my account to {address}
        I need to update my account details, new address {address}
        edit my profile address: {address}
        save {address} as my default address
        my account still has my old address, change it to {address}
        update my address for future orders to {address}
        replace the address on file with {address}
        can you change the address saved on my account
        I'd like my default address to be {address}
        fix the address in my account, it should be {address}
        please record my new address {address} on my account
        update my user profile with the address {address}
        change my account's address
        from now on use {address} as my address
        new default address: {address}
        my profile address is wrong, update it to {address}
        I want to change my account address to {address}
        change the default delivery address on my account
        update my profile, I live at {address} now
        please put {address} on my account as the default
        change the default address in my settings to {address}
        my account address is outdated, it's {address} now
        """,
    ),
    group(
        "plain",
        "notify",
        """
        email me the details
        send me an email when {order} ships
        please email me a summary
        can you send me an e-mail with the order details
        notify me when it arrives
        send a notification to my email
        email me at {email}
        send the confirmation to {email}
        let me know by email when my refund is done
        I want an email receipt for {order}
        email me a copy please
        notify me by e-mail
        forward the order summary to my inbox
        mail me the receipt for {order}
        keep me posted by email
        send me an update by email when it changes
        please notify me at {email}
        email me once it's done
        I'd like an e-mail confirmation
        email the invoice to {email}
        write me an email when the {product} ships
        send an email to me about this
        email me when the refund for {order} is processed
        send me an email once {order} is delivered
        """,
    ),
    group(
        "policy",
        "policy_question",
        """
        what's your return policy?
        can I return things after 30 days?
        how long do I have to return an item?
        how long do refunds usually take?
        how does cancelling an order work?
        can I cancel an order after it ships?
        what's the shipping time usually?
        do you ship internationally?
        how long does standard shipping take?
        is there a fee for returns?
        can I exchange an item for a different size in general?
        what is the refund policy
        can orders be changed after they ship?
        what are the rules for exchanges?
        do refunds go back to the original payment method?
        how many days is the return window?
        can you return opened items?
        how do returns work here?
        is shipping free?
        what's the policy on late deliveries?
        can I change the address after an order has shipped?
        how do I cancel an order, in general?
        are gift cards refundable?
        can a delivered order be cancelled?
        what happens if a package is lost?
        how long does an exchange normally take?
        can I return a used item?
        can I return something I've already opened?
        how long does a refund usually take to arrive?
        how many days do refunds normally take?
        can I exchange something I bought on sale?
        is it possible to cancel an order after paying?
        how long do I have to exchange an item?
        is it too late to cancel an order once it's shipped?
        what happens to my refund if I cancel?
        if I cancel an order, when do I get my money back?
        can I return just one item from an order?
        do I need the original box to return something?
        are exchanges free?
        does cancelling cost anything?
        who pays for return shipping?
        can I cancel part of an order?
        what do I need to do to return an item?
        do you ship to Canada?
        how long is delivery normally?
        what's the deadline for returns?
        do you offer free returns?
        what's the process for exchanging something?
        do I get a full refund when I return an item?
        how long before a cancelled order is refunded?
        is there a restocking fee?
        can I return a gift?
        what's the warranty policy?
        """,
    ),
    group(
        "plain",
        "product_info",
        """
        is the {product} in stock?
        what colors does the {product} come in?
        what sizes does the {product} have?
        how much is the {product}?
        what's the price of the {product}
        do you have the {product} in {option}?
        what options are there for the {product}?
        tell me about the {product}
        is {option} of the {product} available?
        what products do you sell?
        what kinds of products do you have?
        which {product} models do you carry
        how much does the {product} cost in {option}
        any {product} available right now?
        what are the specs of the {product}
        show me the {product} variants
        does the {product} come in black?
        is the {product} waterproof?
        what storage sizes for the {product}
        do you sell a {product}?
        what's the cheapest {product}
        is there a {product} with {option}?
        details on the {product} please
        what materials is the {product} made of
        list the available {product} options
        is the {product} back in stock
        I'm looking for a {product}, what do you have?
        which {product} would you recommend?
        how heavy is the {product}?
        what's the difference between the {product} options?
        do you carry {option} for the {product}?
        is the {product} still available in {option}?
        what brands of {product} do you sell
        how big is the {product}
        any discounts on the {product}?
        compare the {product} models for me
        """,
    ),
    group(
        "plain",
        "human_handoff",
        """
        I want to talk to a human
        let me speak to a real person
        get me a human agent
        can I talk to your manager?
        transfer me to an agent
        I need a real human, not a bot
        connect me to customer service
        put me through to a representative
        agent please
        human please
        I want a manager
        escalate this to a supervisor
        can a person help me instead
        stop, I want to speak with someone
        let me talk to a live agent
        is there a human I can talk to
        I'd like to speak to a representative
        get a person on the line
        transfer me to a human being
        I demand to speak to a manager
        talk to human
        pass me to a real agent
        this bot is useless, get me a person
        call a human
        speak to someone please
        I'd rather deal with a person
        can someone from your team call me?
        hand me over to customer support
        I want to file a complaint with a person
        let me talk to a real support agent
        get me your supervisor
        I need human help with this
        please connect me to a live person
        is anyone there? a real human?
        I'm done with the bot, agent now
        """,
    ),
)
