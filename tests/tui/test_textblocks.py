"""Our own Markdown subset, drawn with display-width wrapping."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console

from interviewer.render import md_escape
from interviewer.tui.textblocks import blocks

MD = """# 面接のまとめ · x

**平均スコア：6.0/10**

| 質問 | スコア | |
|---|---|---|
| algo-05 | 6.0 | `██████░░░░` |

## 弱かった要点

- `░░░░░░` algo-05: vLLM の gpu_memory_utilization を上げると KVキャッシュのブロックが増え、同時に処理できるシーケンスが増える。
- a [red]literal[/red] \\| pipe
> 引用：「Batch Invariance」とは何か。
_注記：italic line_
"""


def render(width: int) -> list[str]:
    console = Console(width=width, record=True, legacy_windows=False, color_system=None)
    console.print(blocks(MD))
    return console.export_text().splitlines()


def test_blocks_wrap_japanese_and_keep_text_literal() -> None:
    for width in (40, 80):
        lines = render(width)
        text = "\n".join(lines)
        assert all(cell_len(line) <= width for line in lines)
        assert "**" not in text and "`" not in text and "|---" not in text
        assert "[red]literal[/red] | pipe" in text  # never Rich markup, escapes undone
        assert not any(line.lstrip().startswith(("、", "。", "」")) for line in lines)
        assert any("gpu_memory_utilization" in line for line in lines)
        assert "…" not in text


def test_escaped_text_reads_as_written() -> None:
    """Bank and candidate text goes through md_escape; every character it escapes comes back as written."""
    written = "δ_t = r_t + γV(s_{t+1}) − V(s_t); A_t = Σ_l (γλ)^l δ_{t+l} | `x` *y* [z] <w> #1"
    console = Console(width=200, record=True, legacy_windows=False, color_system=None)
    console.print(blocks(f"- {md_escape(written)}"))
    assert written in console.export_text()
