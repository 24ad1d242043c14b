"""Line breaking for mixed Japanese/Latin text by terminal display width.

Rich and Textual wrap at spaces and fold anything else per character, which
suits English but not Japanese: a sentence without spaces is folded at
arbitrary points, Latin identifiers inside it are cut ("g / pu_memory_…"),
and lines may start with "、" or "。". Here a line may break at a space or
next to any wide (CJK) character, never inside a run of Latin letters, digits
and their punctuation (unless that run alone is wider than the line), and the
simple kinsoku rules hold: closing punctuation never starts a line and
opening brackets never end one.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import TYPE_CHECKING

from rich.cells import cell_len

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions
    from rich.measure import Measurement
    from rich.text import Text

# May not start a line (gyōtō kinsoku): closing punctuation, small kana, prolonged sound mark.
NO_START = frozenset(
    "、。，．,.・：；:;？！?!ー〜」』）］｝〕〉》】〙〗〟’”)]}ゝゞ々ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ…‥%％"
)
# May not end a line (gyōmatsu kinsoku): opening brackets and quotes.
NO_END = frozenset("「『（［｛〔〈《【〘〖〝‘“([{")


def _is_wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def _units(para: str) -> list[tuple[int, int, bool]]:
    """Split a paragraph into unbreakable units: (start, end, is_space)."""
    units: list[tuple[int, int, bool]] = []
    i, n = 0, len(para)
    while i < n:
        ch = para[i]
        j = i + 1
        if ch.isspace():
            while j < n and para[j].isspace():
                j += 1
            units.append((i, j, True))
        elif _is_wide(ch):
            units.append((i, j, False))
        else:  # a Latin run: letters, digits and their punctuation, up to a space or a wide character
            while j < n and not para[j].isspace() and not _is_wide(para[j]):
                j += 1
            units.append((i, j, False))
        i = j
    # kinsoku: glue a no-start unit to the one before it, a no-end unit to the one after it
    glued: list[tuple[int, int, bool]] = []
    for start, end, space in units:
        if glued and not space and not glued[-1][2]:
            prev = glued[-1]
            if para[start] in NO_START or para[prev[1] - 1] in NO_END:
                glued[-1] = (prev[0], end, False)
                continue
        glued.append((start, end, space))
    return glued


def _fold(para: str, start: int, end: int, width: int) -> Iterator[tuple[int, int]]:
    """Cut one unit wider than the line into pieces of at most `width` cells."""
    i = start
    while i < end:
        j, used = i, 0
        while j < end and used + cell_len(para[j]) <= width:
            used += cell_len(para[j])
            j += 1
        if j == i:  # a character wider than the line: it gets a line of its own
            j = i + 1
        while end > j > i + 1 and para[j] in NO_START:  # do not leave "、" to start the next piece
            j -= 1
        yield i, j
        i = j


def _break_paragraph(para: str, offset: int, width: int) -> Iterator[tuple[int, int]]:
    line_start: int | None = None  # the current line is para[line_start:line_end]
    line_end = used = 0
    emitted = False
    for start, end, space in _units(para):
        if space:
            if start == 0:  # the paragraph's own indentation is kept
                line_start, line_end, used = 0, end, cell_len(para[:end])
            continue  # other spaces join the line with the next unit, or vanish at a break
        step = cell_len(para[line_end:end]) if line_start is not None else 0
        if line_start is not None and used + step <= width:
            line_end, used = end, used + step
            continue
        if line_start is not None and para[line_start:line_end].strip():
            yield offset + line_start, offset + line_end
            emitted = True
        w = cell_len(para[start:end])
        if w > width:
            *full, (line_start, line_end) = _fold(para, start, end, width)
            for s, e in full:
                yield offset + s, offset + e
                emitted = True
            used = cell_len(para[line_start:line_end])
        else:
            line_start, line_end, used = start, end, w
    if line_start is not None and para[line_start:line_end].strip():
        yield offset + line_start, offset + line_end
    elif not emitted:
        yield offset, offset  # an empty (or blank) paragraph is an empty line


def line_spans(text: str, width: int) -> list[tuple[int, int]]:
    """(start, end) of each display line of `text` at `width` cells; newlines always break."""
    width = max(2, width)
    spans: list[tuple[int, int]] = []
    offset = 0
    for para in text.split("\n"):
        spans.extend(_break_paragraph(para, offset, width))
        offset += len(para) + 1
    return spans


def wrap(text: str, width: int) -> list[str]:
    """The lines of `text` broken to fit `width` terminal cells."""
    return [text[s:e] for s, e in line_spans(text, width)]


def min_width(text: str) -> int:
    """The widest unbreakable unit: a table column narrower than this has to fold it."""
    best = 0
    for para in text.split("\n"):
        for start, end, space in _units(para):
            if not space:
                best = max(best, cell_len(para[start:end]))
    return best


class Wrapped:
    """A Rich renderable that breaks its text with `line_spans` at whatever width it is given."""

    def __init__(self, text: Text | str, style: str = "") -> None:
        from rich.text import Text

        self.text = text if isinstance(text, Text) else Text(text, style=style)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        plain = self.text.plain
        for start, end in line_spans(plain, options.max_width):
            line = self.text[start:end]
            line.end = "\n"
            line.no_wrap = True
            line.overflow = "crop"
            yield line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        from rich.measure import Measurement

        plain = self.text.plain
        longest = max((cell_len(line) for line in plain.split("\n")), default=0)
        return Measurement(min(min_width(plain), longest), longest).clamp(max_width=options.max_width)
