"""The one message catalogue for every string a candidate reads.

Strings are marked with `_()` in the source, extracted and merged with Babel
(`pybabel extract/update/compile`), and looked up at run time with stdlib
`gettext` from the compiled `.mo` files in `interviewer/locale/`. English is the
source language, so a missing catalogue falls back to the English text.
The interview language is process-wide: the CLI sets it once, the TUI on Home.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "interviewer"
LANGS = ("en", "it", "ja")

_current = "en"


@cache
def translation(lang: str) -> gettext.NullTranslations:
    """The catalogue for one language (loaded once, on first use; English is the source, no file)."""
    # read the one known path directly: gettext.find() would try locale aliases and variants first
    try:
        with (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as f:
            return gettext.GNUTranslations(f)
    except OSError:
        return gettext.NullTranslations()


def set_language(lang: str) -> None:
    """Switch every later `_()` lookup to `lang` (en, it or ja)."""
    global _current
    _current = lang if lang in LANGS else "en"


def get_language() -> str:
    return _current


def _(message: str) -> str:
    """The message in the current interview language."""
    return translation(_current).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translation(_current).ngettext(singular, plural, n)


def tr(message: str, lang: str) -> str:
    """The message in an explicit language (reports and batch lines carry their own)."""
    return translation(lang if lang in LANGS else "en").gettext(message)


def ntr(singular: str, plural: str, n: int, lang: str) -> str:
    """`ngettext` in an explicit language."""
    return translation(lang if lang in LANGS else "en").ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark a string for extraction without translating it yet (module-level tables)."""
    return message


# Stored values (mode, track, difficulty, examiner, verdict) as the candidate reads them;
# the stored and JSON values stay English.
WORDS = {
    "interview": N_("interview"),
    "drill": N_("drill"),
    "review": N_("review"),
    "algorithm": N_("algorithm"),
    "infrastructure": N_("infrastructure"),
    "foundational": N_("foundational"),
    "intermediate": N_("intermediate"),
    "advanced": N_("advanced"),
    "offline": N_("offline"),
    "strong": N_("strong"),
    "solid": N_("solid"),
    "partial": N_("partial"),
    "weak": N_("weak"),
    "no answer": N_("no answer"),
}


def word(value: str, lang: str | None = None) -> str:
    """A stored value in the current (or the given) language; unknown values unchanged."""
    if value not in WORDS:
        return value
    return tr(WORDS[value], lang) if lang else _(WORDS[value])
