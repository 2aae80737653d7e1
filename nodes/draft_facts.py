"""What a draft states — ids, amounts, dates, statuses — each under one key.

The reviewer compares a model's draft with the turn's results and with the
template draft by these keys, so "$3.50", "3.5 美元" and a stored 3.5 are one
amount; "May 1, 2024", "2024年5月1日" and "2024-05-01" one date; and a status
is its stored value in whichever language a sentence names it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Literal

from nodes.domain import DomainAnswers
from nodes.quoting import norm_id

FactKind = Literal["id", "amount", "date", "status"]

_CURRENCY = re.compile(r"US\$|[$€£¥]|USD|美元|元|dollars?", re.IGNORECASE)
_MONEY = re.compile(
    r"(?:US\$|[$€£¥]|USD\s?)\s?\d[\d,]*(?:\.\d+)?"
    r"|(?<![\w.])\d[\d,]*(?:\.\d+)?\s?(?:dollars?\b|USD\b|美元|元)",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"(?<![\d.])\d+(?:\.\d+)?")
_GROUPED = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_ISO = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_MONTH = r"(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s+(\d{4}))?"
# Month names are matched capitalised: "you may 2" is no date, "May 2" is.
_MONTH_DAY = re.compile(rf"\b{_MONTH}\s+{_DAY}\b{_YEAR}")
_DAY_MONTH = re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}{_YEAR}")
_ZH_DATE = re.compile(r"(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]")


@dataclass(frozen=True)
class Fact:
    """One fact a text states: its kind, its key (one spelling) and how it was written."""

    kind: FactKind
    key: str
    text: str


def facts_in(text: str, answers: DomainAnswers) -> tuple[Fact, ...]:
    """Every id, amount, date and status `text` states, each once (first spelling)."""
    clean = plain(text)
    found = [
        *(_domain_fact(m.group(0)) for m in answers.facts.finditer(clean)),
        *(Fact("amount", amount_key(m.group(0)), m.group(0)) for m in _MONEY.finditer(clean)),
        *_dates(clean),
        *_statuses(clean, answers.statuses),
    ]
    seen: dict[tuple[FactKind, str], Fact] = {}
    for fact in found:
        seen.setdefault((fact.kind, fact.key), fact)
    return tuple(seen.values())


def numbers_in(text: str) -> frozenset[Decimal]:
    """Every number `text` writes, by value ("3.50" is 3.5; "1,200" is 1200)."""
    return frozenset(Decimal(n) for n in _NUMBER.findall(_GROUPED.sub("", plain(text))))


def bare_numbers(text: str) -> list[str]:
    """The numbers `text` writes, as written (thousands separators dropped)."""
    return list(dict.fromkeys(_NUMBER.findall(_GROUPED.sub("", plain(text)))))


def backed(fact: Fact, held: Iterable[Fact], numbers: frozenset[Decimal]) -> bool:
    """Whether `held` (the evidence's facts) or its numbers back `fact`."""
    keys = {(f.kind, f.key) for f in held}
    if (fact.kind, fact.key) in keys:
        return True
    if fact.kind == "amount":
        return Decimal(fact.key) in numbers
    if fact.kind == "date" and fact.key.startswith("--"):
        # A date told without its year matches a dated one on the same day.
        return any(kind == "date" and key.endswith(fact.key[1:]) for kind, key in keys)
    if fact.kind == "id":
        return fact.key.isdigit() and Decimal(fact.key) in numbers
    return False


def amount_key(written: str) -> str:
    """An amount by its value: "$3.50", "3.5 美元" and "US$3.5" are "3.5"."""
    bare = _GROUPED.sub("", _CURRENCY.sub("", written)).strip()
    try:
        return format(Decimal(bare).normalize(), "f")
    except InvalidOperation:
        return bare


def plain(text: str) -> str:
    """`text` in one form (full-width digits and signs as ASCII), so patterns see one spelling."""
    return unicodedata.normalize("NFKC", text)


def _domain_fact(written: str) -> Fact:
    if _CURRENCY.search(written):
        return Fact("amount", amount_key(written), written)
    if iso := _ISO.fullmatch(written):
        return Fact("date", _date_key(*iso.groups()), written)
    return Fact("id", norm_id(written), written)


def _dates(text: str) -> list[Fact]:
    found = [Fact("date", _date_key(*m.groups()), m.group(0)) for m in _ISO.finditer(text)]
    for m in _MONTH_DAY.finditer(text):
        month, day, year = m.groups()
        found.append(Fact("date", _date_key(year, _month(month), day), m.group(0)))
    for m in _DAY_MONTH.finditer(text):
        day, month, year = m.groups()
        found.append(Fact("date", _date_key(year, _month(month), day), m.group(0)))
    for m in _ZH_DATE.finditer(text):
        year, month, day = m.groups()
        found.append(Fact("date", _date_key(year, month, day), m.group(0)))
    return found


def _month(name: str) -> str:
    return str(_MONTHS.index(name[:3]) + 1)


def _date_key(year: str | None, month: str, day: str) -> str:
    """ISO "YYYY-MM-DD"; "--MM-DD" without a year; as written when it is no calendar day."""
    try:
        real = date(int(year or 2000), int(month), int(day))
    except ValueError:
        return f"{year or ''}-{month}-{day}"
    return real.isoformat() if year else f"--{real:%m-%d}"


def _statuses(text: str, statuses: Mapping[str, tuple[str, ...]]) -> list[Fact]:
    found = []
    for value, words in statuses.items():
        for word in (value, *words):
            if (hit := _status_word(word).search(text)) is not None:
                found.append(Fact("status", value, hit.group(0)))
                break
    return found


def _status_word(word: str) -> re.Pattern[str]:
    # English words stand alone ("pending", not "spending"; "waived", not "fine_waived"); Chinese ones are runs.
    if word.isascii():
        return re.compile(rf"(?<![A-Za-z0-9_]){re.escape(word)}(?![A-Za-z0-9_])", re.IGNORECASE)
    return re.compile(re.escape(word))
