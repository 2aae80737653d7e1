"""Read and validate tau2 retail data before anything touches the database.

Every problem becomes one `DataFormatError` line naming where it is
("orders.#W1: missing field 'status'") and how to fix it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from checkpoints.errors import DataFormatError
from domains.retail.storage.models import Order, Tau2Document, User

FORMAT_HINT = "pass a file in the tau2 retail format"
M = TypeVar("M", bound=BaseModel)


def read_tau2_file(path: Path) -> Tau2Document:
    """Read, parse and fully validate a tau2 retail JSON file."""
    label = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataFormatError(f"{label}: no such file; {FORMAT_HINT}") from None
    except UnicodeDecodeError:
        raise DataFormatError(f"{label}: not UTF-8 text; {FORMAT_HINT}") from None
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise DataFormatError(f"{label}: cannot be read ({reason}); {FORMAT_HINT}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        raise DataFormatError(f"{label}: not valid JSON at {where}; {FORMAT_HINT}") from None
    return parse_document(data, source=label)


def parse_document(data: object, *, source: str) -> Tau2Document:
    """Validate a decoded tau2 document: shape, types, and id consistency."""
    document = _validate(Tau2Document, data, source)
    problem = next(document_problems(document), None)
    if problem is not None:
        raise DataFormatError(f"{source}: {problem}; {FORMAT_HINT}")
    return document


def parse_order(data: object) -> Order:
    """Validate one tau2 order dict (as skills hand it to `store_order`)."""
    return _validate(Order, data, "order")


def parse_user(data: object) -> User:
    """Validate one tau2 user dict (as skills hand it to `store_user`)."""
    return _validate(User, data, "user")


def document_problems(document: Tau2Document) -> Iterator[str]:
    """Inconsistencies the types cannot express; referential ones are the database's job."""
    for key, product in document.products.items():
        yield from _key_problem(f"products.{key}", key, product.product_id, "product_id")
        yield from _inner_key_problems(f"products.{key}.variants", product.variants, "item_id")
    for key, user in document.users.items():
        yield from _key_problem(f"users.{key}", key, user.user_id, "user_id")
        yield from _inner_key_problems(f"users.{key}.payment_methods", user.payment_methods, "id")
        yield from _user_order_problems(document, user)
    for key, order in document.orders.items():
        yield from _key_problem(f"orders.{key}", key, order.order_id, "order_id")


def _key_problem(where: str, key: str, own_id: str, field: str) -> Iterator[str]:
    if key != own_id:
        yield f"{where}: key differs from {field} '{own_id}'"


def _inner_key_problems(where: str, entries: Mapping[str, BaseModel], field: str) -> Iterator[str]:
    # Nested entries are named by their path alone; the id is read by field name.
    for key, entry in entries.items():
        if key != getattr(entry, field):
            yield f"{where}.{key}: key differs from {field}"


def _user_order_problems(document: Tau2Document, user: User) -> Iterator[str]:
    # A user's list is stored as positions on the orders themselves, so it may
    # only name existing orders of that user, each once.
    seen: set[str] = set()
    for order_id in user.orders:
        where = f"users.{user.user_id}.orders"
        order = document.orders.get(order_id)
        if order_id in seen:
            yield f"{where}: order '{order_id}' is listed twice"
        elif order is None:
            yield f"{where}: order '{order_id}' is not in orders"
        elif order.user_id != user.user_id:
            yield f"{where}: order '{order_id}' belongs to user '{order.user_id}'"
        seen.add(order_id)


def _validate(model: type[M], data: object, source: str) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise DataFormatError(
            f"{source}: {describe_validation_error(exc)}; {FORMAT_HINT}"
        ) from None


def describe_validation_error(exc: ValidationError) -> str:
    """The first problem of a pydantic error as 'path: what', plus how many more."""
    errors = exc.errors()
    first = errors[0]
    loc = [str(part) for part in first["loc"]]
    parent = ".".join(loc[:-1]) or "top level"
    if first["type"] == "missing":
        text = f"{parent}: missing field '{loc[-1]}'"
    elif first["type"] == "extra_forbidden":
        text = f"{parent}: unknown field '{loc[-1]}'"
    else:
        text = f"{'.'.join(loc) or 'top level'}: {first['msg']}"
    more = len(errors) - 1
    return text if more == 0 else f"{text} (and {more} more problem{'s' * (more > 1)})"
