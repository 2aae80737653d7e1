"""Validation of tau2 files: every problem is one line naming where and how to fix."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from checkpoints.errors import DataFormatError
from domains.retail.storage.canonical import canonical_hash, canonical_json, document_canonical
from domains.retail.storage.models import OPTIONAL_ORDER_FIELDS
from domains.retail.storage.tau2_format import parse_document, parse_order, read_tau2_file


def _write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "db.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _error(path: Path) -> str:
    with pytest.raises(DataFormatError) as caught:
        read_tau2_file(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.endswith("; pass a file in the tau2 retail format")
    return message


def test_valid_file_parses_with_every_optional_field(
    tmp_path: Path, mini_doc: dict[str, Any]
) -> None:
    document = read_tau2_file(_write(tmp_path, mini_doc))
    canonical = document_canonical(document)
    order = canonical["orders"]["#W0000001"]
    assert list(order)[:7] == [
        "order_id", "user_id", "address", "items", "status", "fulfillments", "payment_history"
    ]  # fmt: skip
    assert tuple(list(order)[7:]) == OPTIONAL_ORDER_FIELDS
    assert order["cancel_reason"] is None
    assert canonical["orders"]["#W0000002"]["return_items"] == ["2000000001"]


def test_malformed_json_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "db.json"
    path.write_text('{\n  "products": {},\n  "users": {,\n}', encoding="utf-8")
    assert _error(path) == (
        f"{path}: not valid JSON at line 3 column 13; pass a file in the tau2 retail format"
    )


def test_missing_field_names_its_path(tmp_path: Path, mini_doc: dict[str, Any]) -> None:
    del mini_doc["orders"]["#W0000003"]["status"]
    message = _error(_write(tmp_path, mini_doc))
    assert "orders.#W0000003: missing field 'status'" in message


def test_wrong_shape_is_rejected(tmp_path: Path) -> None:
    assert "top level: Input should be a valid dictionary" in _error(_write(tmp_path, [1, 2]))


def test_unknown_field_is_rejected_not_dropped(tmp_path: Path, mini_doc: dict[str, Any]) -> None:
    mini_doc["users"]["otto_szabo_5678"]["nickname"] = "o"
    assert "users.otto_szabo_5678: unknown field 'nickname'" in _error(_write(tmp_path, mini_doc))


def test_bad_status_and_wrong_type(tmp_path: Path, mini_doc: dict[str, Any]) -> None:
    mini_doc["orders"]["#W0000001"]["status"] = "lost"
    assert "orders.#W0000001.status: Input should be" in _error(_write(tmp_path, mini_doc))
    mini_doc["orders"]["#W0000001"]["status"] = "pending"
    mini_doc["products"]["1000000001"]["variants"]["2000000001"]["price"] = "cheap"
    assert "variants.2000000001.price" in _error(_write(tmp_path, mini_doc))


def test_missing_and_unreadable_files(tmp_path: Path) -> None:
    assert "no such file" in _error(tmp_path / "absent.json")
    assert "cannot be read" in _error(tmp_path)  # a directory
    binary = tmp_path / "db.json"
    binary.write_bytes(b"\xff\xfe\x00")
    assert "not UTF-8 text" in _error(binary)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_permission_denied_is_one_line(tmp_path: Path, mini_doc: dict[str, Any]) -> None:
    path = _write(tmp_path, mini_doc)
    path.chmod(0)
    assert "cannot be read (Permission denied)" in _error(path)


def test_keys_must_match_ids(tmp_path: Path, mini_doc: dict[str, Any]) -> None:
    mini_doc["orders"]["#W0000009"] = mini_doc["orders"].pop("#W0000003")
    mini_doc["users"]["otto_szabo_5678"]["orders"] = []
    assert "orders.#W0000009: key differs from order_id '#W0000003'" in _error(
        _write(tmp_path, mini_doc)
    )


def test_user_order_list_must_name_own_orders(mini_doc: dict[str, Any]) -> None:
    mini_doc["users"]["otto_szabo_5678"]["orders"].append("#W0000001")
    with pytest.raises(DataFormatError, match="belongs to user 'ada_novak_1234'"):
        parse_document(mini_doc, source="db.json")
    mini_doc["users"]["otto_szabo_5678"]["orders"] = ["#W0000003", "#W0000003"]
    with pytest.raises(DataFormatError, match="listed twice"):
        parse_document(mini_doc, source="db.json")


def test_non_finite_amounts_are_rejected(mini_doc: dict[str, Any]) -> None:
    order = mini_doc["orders"]["#W0000001"]
    order["payment_history"][0]["amount"] = float("nan")
    with pytest.raises(DataFormatError, match="finite number"):
        parse_order(order)


def test_canonical_json_and_hash_follow_the_reference_recipe(mini_doc: dict[str, Any]) -> None:
    canonical = document_canonical(parse_document(mini_doc, source="x"))
    text = canonical_json(canonical)
    assert text == json.dumps(canonical, sort_keys=True) and not text.endswith("\n")
    assert canonical_hash(canonical) == canonical_hash(json.loads(text))
    canonical["users"]["otto_szabo_5678"]["payment_methods"]["gift_card_4444444"]["balance"] = 0.01
    assert canonical_hash(canonical) != canonical_hash(json.loads(text))
