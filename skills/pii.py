"""Masking personal data before it is shown: one place for the harness and its domains."""

from __future__ import annotations


def mask_email(address: str) -> str:
    """`j***@example.com`: enough to recognise, not enough to harvest."""
    local, _, domain = address.partition("@")
    return f"{local[:1]}***@{domain}"
