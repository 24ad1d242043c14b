"""The message catalogues match the source: nothing missing, nothing stale, nothing untranslated.

Extraction uses Babel's Python API with the settings `pybabel extract` reads
from pyproject.toml, so a failure here is fixed with the commands in
docs/TRANSLATING.md (extract, update, translate, compile).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_keywords
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from interviewer.i18n import LANGS, LOCALE_DIR, N_, set_language, tr
from tests.conftest import ROOT

TRANSLATED = [lang for lang in LANGS if lang != "en"]
FIELD = re.compile(r"\{([^{}]*)\}")


def _config() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["babel"]["extract_messages"]


def _key(msgid: str | tuple[str, ...]) -> str:
    return msgid if isinstance(msgid, str) else msgid[0]


def source_messages() -> dict[str, str | tuple[str, ...]]:
    """Every marked string in the package, as `pybabel extract` finds it."""
    cfg = _config()
    keywords = {**DEFAULT_KEYWORDS, **parse_keywords(str(cfg["keywords"]).split())}  # as `-k tr -k ntr:1,2`
    found: dict[str, str | tuple[str, ...]] = {}
    for _filename, _lineno, message, _comments, _context in extract_from_dir(
        ROOT / str(cfg["input-paths"]), keywords=keywords
    ):
        msgid: str | tuple[str, ...] = message if isinstance(message, str) else tuple(m for m in message if m)
        if msgid:
            found[_key(msgid)] = msgid
    return found


def _strings(value: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def _catalog(path: Path, locale: str | None = None):  # type: ignore[no-untyped-def]
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def test_template_matches_the_source() -> None:
    source = source_messages()
    pot = _catalog(LOCALE_DIR / "interviewer.pot")
    template = {_key(m.id): m.id for m in pot if m.id}
    missing = sorted(set(source) - set(template))
    stale = sorted(set(template) - set(source))
    assert not missing, f"strings not in interviewer.pot (run pybabel extract): {missing}"
    assert not stale, f"strings in interviewer.pot no longer in the source (run pybabel extract): {stale}"
    for key, msgid in source.items():
        assert template[key] == msgid, f"plural form differs for {key!r}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalogue_is_complete_current_and_compiled(lang: str) -> None:
    source = source_messages()
    po_path = LOCALE_DIR / lang / "LC_MESSAGES" / "interviewer.po"
    catalog = _catalog(po_path, lang)
    entries = {_key(m.id): m for m in catalog if m.id}
    missing = sorted(set(source) - set(entries))
    stale = sorted(set(entries) - set(source))
    assert not missing, f"{po_path}: missing (run pybabel update): {missing}"
    assert not stale, f"{po_path}: stale (run pybabel update): {stale}"
    assert not list(catalog.obsolete), f"{po_path}: obsolete #~ entries left"
    for key, m in entries.items():
        assert "fuzzy" not in m.flags, f"{po_path}: fuzzy translation for {key!r}"
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        assert all(strings), f"{po_path}: untranslated {key!r}"
        assert len(strings) == (catalog.num_plurals if isinstance(m.id, tuple) else 1), key
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        wanted = {f for i in ids for f in FIELD.findall(i)}
        for s in strings:
            # every {placeholder} kept, none invented (a typo would raise KeyError at run time)
            assert set(FIELD.findall(s)) == wanted, f"{po_path}: placeholders differ in {key!r}: {s!r}"
        assert not m.check(catalog), f"{po_path}: {key!r}: {m.check(catalog)}"
    # the compiled .mo (what the app reads) says exactly what the .po says
    with (po_path.with_suffix(".mo")).open("rb") as f:
        mo = read_mo(f)
    compiled = {_key(m.id): _strings(m.string) for m in mo if m.id}
    assert compiled == {k: _strings(m.string) for k, m in entries.items()}, f"{po_path.with_suffix('.mo')} is out of date: run pybabel compile"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_runtime_lookup_uses_the_compiled_catalogue(lang: str) -> None:
    assert tr("What a strong answer adds", lang) != "What a strong answer adds"
    assert tr(N_("Score"), "en") == "Score"
    set_language(lang)
    from interviewer.i18n import _, ngettext

    assert _("Start") != "Start"
    assert "{n}" in ngettext("{n} question", "{n} questions", 3)
