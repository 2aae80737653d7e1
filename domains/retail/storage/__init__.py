"""The retail domain data layer: tau2-format data in relational tables.

Load and export whole databases (`load_tau2`, `export_canonical`,
`canonical_hash`), read and write single entities for skills (`fetch_*`,
`store_order`, `store_user`), read synthesised tracking (`fetch_tracking`),
and generate the project's own reference data (`generate_reference`).
"""

from __future__ import annotations

from domains.retail.storage.canonical import canonical_hash, canonical_json, export_canonical
from domains.retail.storage.counts import table_counts
from domains.retail.storage.generator import generate_reference, reference_document
from domains.retail.storage.loader import RETAIL_LOCK_KEY, LoadSummary, load_document, load_tau2
from domains.retail.storage.models import ORDER_STATUSES, Tau2Document
from domains.retail.storage.reads import (
    fetch_order,
    fetch_product,
    fetch_user,
    fetch_variant,
    find_user_id_by_email,
    find_user_id_by_name_zip,
    list_product_types,
)
from domains.retail.storage.records import JsonDict
from domains.retail.storage.tau2_format import parse_document, read_tau2_file
from domains.retail.storage.tracking import TRACKING_AS_OF
from domains.retail.storage.tracking_store import fetch_tracking, synthesize_tracking
from domains.retail.storage.writes import store_order, store_user

__all__ = [
    "ORDER_STATUSES",
    "RETAIL_LOCK_KEY",
    "TRACKING_AS_OF",
    "JsonDict",
    "LoadSummary",
    "Tau2Document",
    "canonical_hash",
    "canonical_json",
    "export_canonical",
    "fetch_order",
    "fetch_product",
    "fetch_tracking",
    "fetch_user",
    "fetch_variant",
    "find_user_id_by_email",
    "find_user_id_by_name_zip",
    "generate_reference",
    "list_product_types",
    "load_document",
    "load_tau2",
    "parse_document",
    "read_tau2_file",
    "reference_document",
    "store_order",
    "store_user",
    "synthesize_tracking",
    "table_counts",
]
