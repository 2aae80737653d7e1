"""Which value a retail change that gives none is asked for, and how a reply gives it."""

from __future__ import annotations

import pytest

from domains.retail.pack import DOMAIN
from domains.retail.understanding import understand
from nodes.contracts import Question
from nodes.conversation.references import value_answer, value_wanted
from tests.deadline import within_seconds

ADDRESS_QUESTION = Question(
    kind="clarify", text="What is the new address?", request="change my address",
    slot="address", audit_id="a1",
)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("please change the shipping address of #W1234567", "address"),
        ("订单W1234567的收货地址改一下", "address"),
        ("I moved, please update my address", "address"),
        ("change the payment method of order #W1234567", "payment_method"),
        ("订单W1234567改用别的付款方式", "payment_method"),
        # What an item change changes is in its words: nothing is asked.
        ("change the helmet in #W1234567 to size M", None),
        # The value given: nothing to ask.
        ("change the address of #W1234567 to 12 Oak St, Austin, TX 78701", None),
        ("pay #W1234567 with paypal instead", None),
        # A read asks for no value.
        ("what's the address on #W1234567?", None),
    ],
)
def test_the_value_asked_for(text: str, slot: str | None) -> None:
    wanted = value_wanted(DOMAIN, understand(text))
    assert (wanted.slot if wanted else None) == slot


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ("12 Oak St, Apt 4, Austin, TX 78701", "12 Oak St, Apt 4, Austin, TX 78701"),
        ("sure — ship it to 9 Pine Rd, Dover, DE 19901 thanks", "9 Pine Rd, Dover, DE 19901"),
        ("地址是 300 Main Street, Boston, MA 02108", "300 Main Street, Boston, MA 02108"),
        ("my street is Oak St", None),
        ("上海市浦东新区张江路88号", None),
    ],
)
def test_a_reply_gives_an_address_written_as_one(reply: str, value: str | None) -> None:
    assert value_answer(DOMAIN, ADDRESS_QUESTION, reply) == value


def test_a_request_going_on_with_its_address_reads_it() -> None:
    reading = understand(
        "please change the shipping address of #W1234567: 9 Pine Rd, Dover, DE 19901"
    )
    assert reading.intents == ("modify_order",)
    assert reading.slot("address") == ("9 Pine Rd, Dover, DE 19901",)


def test_a_reply_of_commas_and_spaces_is_read_in_linear_time() -> None:
    # Spaces after a comma could go to the whitespace or to the part: each run split two
    # ways in every part, and 26 spaces four times took a second to refuse.
    reply = "1 a" + ("," + " " * 400) * 4 + "x"
    with within_seconds(5, "ADDRESS_SHAPE"):
        assert value_answer(DOMAIN, ADDRESS_QUESTION, reply) is None
        assert value_answer(DOMAIN, ADDRESS_QUESTION, "1 a" * 1500) is None
