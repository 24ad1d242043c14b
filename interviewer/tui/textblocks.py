"""The few Markdown constructs our own feedback, summaries and reports use, laid out for CJK.

Textual's Markdown widget wraps only at spaces: Japanese sentences get
ragged, one-word lines and Latin identifiers pushed around. The texts the app
generates use only headings, bullets, quotes, simple tables, **bold**,
`code` and _italic_ lines, so they are drawn here as Rich renderables whose
text is `Wrapped` (display width, kinsoku, Latin words kept whole).
Candidate and model text is never interpreted as markup by Rich: every piece
becomes a `Text`.
"""

from __future__ import annotations

import re

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from interviewer.linebreak import Wrapped

# an escaped character is any punctuation md_escape escapes, the underscore too (an escaped underscore shows as "_")
_INLINE = re.compile(r"\\([^\w\s]|_)|\*\*((?:\\.|[^*])+?)\*\*|`([^`]+)`")
_ESCAPE = re.compile(r"\\([^\w\s]|_)")


def inline(text: str, style: str = "") -> Text:
    """**bold** and `code` spans as styles, backslash escapes (render.md_escape) undone; the rest literal."""
    out = Text(style=style)
    pos = 0
    for m in _INLINE.finditer(text):
        out.append(text[pos : m.start()])
        if m.group(1) is not None:
            out.append(m.group(1))
        elif m.group(2) is not None:
            out.append(_ESCAPE.sub(r"\1", m.group(2)), style="bold")
        else:
            out.append(m.group(3), style="bold")
        pos = m.end()
    out.append(text[pos:])
    return out


def _cells(row: str) -> list[str]:
    parts = re.split(r"(?<!\\)\|", row.strip().strip("|"))
    return [p.strip() for p in parts]


def _line(line: str) -> Text:
    m = re.fullmatch(r"_(.+)_", line.strip())
    return inline(m.group(1), "italic") if m else inline(line)


def blocks(markdown: str) -> Group:
    """Headings, bullets (hanging indent), > quotes, | tables |, paragraphs; all wrapped by display width."""
    parts: list[RenderableType] = []
    bullets: Table | None = None
    bullet_level = 0
    table: Table | None = None
    for raw in markdown.splitlines():
        line = raw.rstrip()
        if line.startswith("|"):
            cells = _cells(line)
            if all(re.fullmatch(r":?-+:?", c or "-") for c in cells):
                continue  # the |---| separator
            if table is None:
                table = Table(box=box.SIMPLE_HEAD, pad_edge=False, expand=False)
                for c in cells:
                    table.add_column(Wrapped(inline(c, "bold")))
                parts.append(table)
            else:
                table.add_row(*(Wrapped(_line(c)) for c in cells))
            continue
        table = None
        item = re.match(r"( *)[-*] (.*)", line)
        if item:
            level = len(item.group(1)) // 2
            if bullets is None or bullet_level != level:
                bullets, bullet_level = Table.grid(padding=(0, 1)), level
                bullets.add_column(width=1 + 2 * level, justify="right")
                bullets.add_column(ratio=1)
                parts.append(bullets)
            bullets.add_row("◦" if level else "•", Wrapped(_line(item.group(2))))
            continue
        bullets = None
        if not line.strip():
            if parts and not (isinstance(parts[-1], Text) and not parts[-1].plain):
                parts.append(Text(""))
        elif line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            style = "bold underline" if level == 1 else "bold"
            parts.append(Wrapped(inline(line.lstrip("#").strip(), style)))
        elif line.startswith("> "):
            grid = Table.grid(padding=(0, 1))
            grid.add_column(width=1)
            grid.add_column(ratio=1)
            grid.add_row(Text("▌", style="dim"), Wrapped(_line(line[2:])))
            parts.append(grid)
        else:
            parts.append(Wrapped(_line(line)))
    return Group(*parts)
