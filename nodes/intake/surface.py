"""The surface a request's intents are read from: Chinese set apart from the Latin
letters and digits mixed into it, and misspelt English words put right.

"我account的地址", "取消W1234567": Python's `\b` sees no boundary between a Chinese
character and a Latin letter, so every English pattern and id rule misses a word
glued to Chinese; a space between the scripts (as Chinese typesetting puts one)
gives them the boundary they look for.

"cahnge", "rteurn", "cancle", "everry order": a slipped, doubled, dropped or
swapped letter hides the word every rule and veto looks for, and a learned
reader leans on those words too. A word no dictionary knows, one edit away from
one it does, is read as that word (pyspellchecker: an English frequency
dictionary and Norvig's edit candidates, the most frequent winning).

Only the reading of intents sees the corrected text: slot values (addresses,
names, ids) are extracted from what the customer wrote, and identifiers are
never touched (a word beside a digit, `#`, `@`, `_` or an apostrophe is left
as written, so "hasn't" stays "hasn't").

pyspellchecker is imported on first use only, and its dictionary read once per
data directory: its `ENGLISH_WORDS` most frequent words are kept beside the
trained readers (`nodes.intake.learned.cache_dir`), which a process reads in a
hundredth of a second instead of the whole dictionary's sixth of one.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spellchecker import SpellChecker

# Chat spellings and apostrophe-less contractions: words, not slips ("dont" is no "done").
CHAT_WORDS: frozenset[str] = frozenset(
    {
        "dont", "doesnt", "didnt", "hasnt", "havent", "hadnt", "isnt", "wasnt", "arent",
        "werent", "cant", "wont", "wouldnt", "couldnt", "shouldnt", "aint", "youre",
        "theyre", "thats", "whats", "wheres", "whens", "hows", "whos", "youve", "wanna",
        "gonna", "gotta", "lemme", "gimme", "kinda", "sorta", "thnx", "thanx", "okay", "asap",
    }
)  # fmt: skip
_WORD = re.compile(r"(?<![A-Za-z0-9#@_'’-])[a-z]{4,}(?![A-Za-z0-9#@_'’-])")
ENGLISH_WORDS = 40_000
"""Words kept of the English dictionary: enough that a real word is never "corrected"
to another ("chance" is no "change"), few enough to read at every start."""
_SCRIPTS = re.compile(r"(?<=[\u4e00-\u9fff])(?=[A-Za-z0-9#])|(?<=[A-Za-z0-9])(?=[\u4e00-\u9fff])")
_LOCK = threading.Lock()
_CHECKERS: dict[frozenset[str], SpellChecker] = {}


def surface(lowered: str, known: Iterable[str] = ()) -> str:
    """`lowered` as its intents are read: scripts spaced apart, spelling corrected
    (`corrected`)."""
    return corrected(spaced(lowered), known)


def spaced(text: str) -> str:
    """`text` with a space wherever Chinese meets a Latin letter or digit."""
    return _SCRIPTS.sub(" ", text)


def corrected(lowered: str, known: Iterable[str] | Mapping[str, int] = ()) -> str:
    """`lowered` with every unknown word of four or more letters replaced by the
    known word one edit away from it, if there is one; `known` adds the words of a
    domain (product names, its own terms) to the dictionary. Given with how often the
    domain uses each, the domain's most used candidate wins over English's: to a shop,
    "traking" is "tracking", not the more common "taking", and "adress" no "dress"."""
    uses = known if isinstance(known, Mapping) else {}
    known = frozenset(known) | CHAT_WORDS
    # Most requests use only the domain's own words: the dictionary is not even read.
    words = set(_WORD.findall(lowered)) - known
    if not words:
        return lowered
    checker = _checker(known)
    fixes = {
        word: fix
        for word in checker.unknown(words)
        if (fix := _likeliest(checker, word, uses)) is not None and fix != word
    }
    if not fixes:
        return lowered
    return _WORD.sub(lambda m: fixes.get(m.group(0), m.group(0)), lowered)


def _likeliest(checker: SpellChecker, word: str, uses: Mapping[str, int]) -> str | None:
    ours = [c for c in checker.candidates(word) or () if uses.get(c)]
    return max(ours, key=lambda c: (uses[c], c)) if ours else checker.correction(word)


def _checker(known: frozenset[str]) -> SpellChecker:
    with _LOCK:
        if (checker := _CHECKERS.get(known)) is None:
            from spellchecker import SpellChecker

            checker = SpellChecker(language=None, distance=1)
            checker.word_frequency.load_json(english_words())
            checker.word_frequency.load_words(known)
            _CHECKERS[known] = checker
        return checker


def english_words(directory: Path | None = None) -> dict[str, int]:
    """The `ENGLISH_WORDS` most frequent English words and their frequencies: from the
    cache, else from pyspellchecker's dictionary (then cached). A damaged cache file
    is rebuilt, never trusted."""
    from importlib.metadata import version

    from nodes.intake.learned import cache_dir, write_whole

    path = (
        directory or cache_dir()
    ) / f"spelling-en-{version('pyspellchecker')}-{ENGLISH_WORDS}.json"
    with contextlib.suppress(OSError, ValueError):
        words = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(words, dict) and len(words) == ENGLISH_WORDS:
            return words
    from spellchecker import SpellChecker

    ranked = sorted(
        SpellChecker().word_frequency.dictionary.items(), key=lambda kv: (-kv[1], kv[0])
    )
    words = dict(ranked[:ENGLISH_WORDS])
    write_whole(path, lambda tmp: Path(tmp).write_text(json.dumps(words), encoding="utf-8"))
    return words
