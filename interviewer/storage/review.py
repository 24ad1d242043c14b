"""Spaced repetition: each question is an FSRS card scheduled from its grades.

Cards are derived data: every graded question in the history is one review,
so importing a backup can rebuild them from the sessions alone.
"""

from __future__ import annotations

import zlib
from datetime import UTC, datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fsrs import Rating, Scheduler


def rating_for(score: float) -> Rating:
    """Map a 0-10 grade to an FSRS rating: a weak answer comes back soon."""
    from fsrs import Rating

    if score < 4.0:
        return Rating.Again
    if score < 6.0:
        return Rating.Hard
    if score < 8.5:
        return Rating.Good
    return Rating.Easy


def scheduler() -> Scheduler:
    from fsrs import Scheduler

    return Scheduler(enable_fuzzing=False)  # deterministic schedules


def review(question_id: str, card_json: str | None, score: float, at: datetime) -> tuple[str, str]:
    """Apply one graded attempt; return the new card (JSON) and its due time (ISO)."""
    from fsrs import Card

    card = Card.from_json(card_json) if card_json else Card(card_id=zlib.crc32(question_id.encode()), due=at)
    card, _log = scheduler().review_card(card, rating_for(score), review_datetime=at)
    return card.to_json(), card.due.astimezone(UTC).isoformat(timespec="seconds")


def parse_time(value: str) -> datetime:
    dt = datetime.fromisoformat(value)
    return dt if dt.tzinfo else dt.replace(tzinfo=UTC)



def due_phrase(due: str, lang: str = "en", at: datetime | None = None) -> str:
    """When a card comes back, in words: "next review in 10 minutes", "in 1 day" (Babel, en/it/ja)."""
    from babel.dates import format_timedelta

    from interviewer.i18n import tr

    delta = parse_time(due) - (at or datetime.now(UTC))
    if delta.total_seconds() <= 0:
        return tr("due for review now", lang)
    when = format_timedelta(delta, granularity="minute", threshold=1.0, add_direction=True, locale=lang)
    return tr("next review {when}", lang).format(when=when)
