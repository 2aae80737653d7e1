"""The library desk's `Domain`: every library-specific part the harness is handed."""

from __future__ import annotations

from pathlib import Path

from checkpoints.migrations import MigrationSource
from checkpoints.opening import Pool
from domains.library import COMMANDS, vocabulary
from domains.library.conversation import LibraryConversationAnswers, LibraryConversationRecords
from domains.library.memory import LibraryMemory
from domains.library.planning import LibraryPlanning
from domains.library.storage.seed import LibrarySeed
from nodes.domain import Domain, IntentSpec, Lexicon, Reading, SlotSpec
from skills.resources import ResourceVocabulary

HERE = Path(__file__).resolve().parent


class LibraryUnderstanding:
    """`DomainUnderstanding` of the library desk: ids and phrases, no data words."""

    intents: tuple[IntentSpec, ...] = vocabulary.INTENTS
    slots: tuple[SlotSpec, ...] = vocabulary.SLOTS

    async def lexicon(self, pool: Pool) -> Lexicon:
        return {}  # every id the desk reads has a fixed shape; no titles are needed

    def read(self, text: str, lexicon: Lexicon) -> Reading:
        return Reading(*vocabulary.read(text))


RESOURCES = ResourceVocabulary(
    data=frozenset(
        {"db://members", "db://books", "db://loans", "db://holds", "db://notifications"}
    ),
    tools=frozenset({"tool://send_notification"}),
    knowledge=frozenset({"loan_policy"}),
)

DOMAIN = Domain(
    name="library",
    catalog=HERE / "catalog",
    roles=HERE / "roles",
    knowledge=HERE / "knowledge",
    prompts=HERE / "prompts",
    migrations=MigrationSource("library", HERE / "sql"),
    resources=RESOURCES,
    understanding=LibraryUnderstanding(),
    records=LibraryConversationRecords(),
    planning=LibraryPlanning(),
    answers=LibraryConversationAnswers(),
    commands=COMMANDS,
    settings=("SMTP_HOST", "SMTP_PORT", "SMTP_FROM", "NOTIFY_MAX_ATTEMPTS"),
    seed=LibrarySeed(),
    memory=LibraryMemory(),
)
