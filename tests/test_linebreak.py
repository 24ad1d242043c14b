"""Line breaking by display width for Japanese mixed with Latin identifiers."""

from __future__ import annotations

import re
from itertools import pairwise

from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table

from interviewer.linebreak import NO_END, NO_START, Wrapped, line_spans, wrap

JA = "GRPOはグループ内の平均報酬をベースラインとして使い、gpu_memory_utilizationを0.9に設定する。「RadixAttention」はKVキャッシュを共有します。"
KANA = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほ日本語評価基準分散"
LATIN = "abcxyzABCXYZ0189_-/."
PUNCT = "、。」）「（"
pieces = st.one_of(
    st.text(alphabet=KANA, min_size=1, max_size=12),
    st.text(alphabet=LATIN, min_size=1, max_size=14),
    st.sampled_from(list(PUNCT)),
    st.sampled_from([" ", "  ", "\n", "　"]),
)
texts = st.lists(pieces, max_size=40).map("".join)
LATIN_RUN = re.compile(r"[^\s\u3000-\u9fff\uff00-\uffef]+")


def _may_break(text: str, i: int) -> bool:
    """May a line break fall between text[i-1] and text[i] without splitting a word or breaking kinsoku?"""
    a, b = text[i - 1], text[i]
    if a.isspace() or b.isspace():
        return True
    if b in NO_START or a in NO_END:
        return False
    return not (LATIN_RUN.fullmatch(a) and LATIN_RUN.fullmatch(b))


def _no_long_kinsoku_chains(text: str) -> bool:
    return not re.search(f"[{re.escape(''.join(NO_START | NO_END))}]{{3,}}", text)


@settings(max_examples=300, deadline=None)
@given(text=texts, width=st.integers(min_value=6, max_value=60))
@example(text="「「000", width=6)  # two glued brackets make the word wider than the line: it must break inside
@example(text="あ.0000", width=6)  # "." may not start a line, so "あ.0000" is one 7-cell unit
@example(text="00000、.0", width=8)
def test_lines_fit_keep_the_text_and_respect_words_and_kinsoku(text: str, width: int) -> None:
    assume(_no_long_kinsoku_chains(text))
    spans = line_spans(text, width)
    lines = [text[s:e] for s, e in spans]
    # no line is wider than the width
    assert all(cell_len(line) <= width for line in lines), lines
    # nothing is lost or reordered: only whitespace disappears, at line breaks
    pos = 0
    for s, e in spans:
        assert s >= pos and not text[pos:s].strip(), (text, spans)
        pos = e
    assert not text[pos:].strip()
    assert re.sub(r"\s", "", "".join(lines)) == re.sub(r"\s", "", text)
    for (s1, e1), (s2, _e2) in pairwise(spans):
        if e1 != s2:
            continue  # broken at whitespace or a newline
        # a break inside a word happens only when the word (with its glued punctuation) is wider than the line
        if LATIN_RUN.fullmatch(text[e1 - 1 : e1 + 1] or "x"):
            # the unbreakable unit around the break: words, with punctuation that may not end or start a
            # line glued to its neighbours ("「「000", "あ.0000", "00000、.0")
            start, end = e1 - 1, e1 + 1
            while start > 0 and not _may_break(text, start):
                start -= 1
            while end < len(text) and not _may_break(text, end):
                end += 1
            assert cell_len(text[start:end]) > width, (text, width, lines)
        # kinsoku: closing punctuation never starts a line that follows a break
        if text[s2] in NO_START:
            assert e1 - s1 <= 1, (text, width, lines)


def test_japanese_with_identifiers() -> None:
    lines = wrap(JA, 30)
    assert all(cell_len(x) <= 30 for x in lines)
    assert any("gpu_memory_utilization" in x for x in lines)
    assert any("「RadixAttention」" in x for x in lines)
    assert not any(x[0] in "、。」" for x in lines)


def test_english_wraps_at_spaces_and_newlines_are_kept() -> None:
    assert wrap("the baseline lowers the variance", 12) == ["the baseline", "lowers the", "variance"]
    assert wrap("a\n\nb", 10) == ["a", "", "b"]


def test_wrapped_in_a_narrow_table_column_never_truncates() -> None:
    table = Table("評価基準", "あなたの言葉", width=50)
    table.add_row(Wrapped(JA), Wrapped("“" + JA + "”"))
    console = Console(width=50, record=True, legacy_windows=False)
    console.print(table)
    out = console.export_text()
    assert "…" not in out
    assert "gpu_memory_utilization" in out  # whole, in the wider column
    flat = re.sub(r"[\s│┃|─━]", "", out)
    assert "グループ内の平均報酬" in flat
