"""`interviewer eval` reports: text (with a terminal agreement plot), JSON, and self-contained HTML."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from interviewer.evaluation import UNDER_GRADED, Agreement, Scored, scatter


@dataclass
class RunInfo:
    """What was evaluated, how, and what it cost."""

    set_label: str
    examiner: str
    samples: int
    seconds: float
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None
    failed: list[tuple[str, str]]  # (id, error) of lines the examiner could not grade
    fallbacks: int  # lines graded offline because the model's reply was unusable or refused


def _num(x: float | None, digits: int = 3) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def _share(pair: tuple[int, int]) -> str:
    wins, n = pair
    return f"{wins}/{n} questions = {wins / n:.0%}" if n else "n/a (no question has both kinds)"


def _cost(run: RunInfo) -> str:
    if run.examiner == "offline":
        return "$0 (offline)"
    return "unknown (the model's price is not in litellm's map)" if run.cost_usd is None else f"${run.cost_usd:.4f}"


def summary_lines(a: Agreement, run: RunInfo) -> list[str]:
    out = [
        f"interviewer eval: {a.n} answers from {run.set_label}",
        f"examiner {run.examiner}" + (f", {run.samples} samples per answer" if run.samples > 1 else "")
        + f", {run.seconds:.1f} s",
        "",
        f"Spearman (all)            {_num(a.spearman)}",
    ]
    out += [f"  {f'[{k}] n={g.n}':<24s}{_num(g.spearman)}" for k, g in [*a.by_lang.items(), *a.by_track.items()]]
    out += [
        f"pair-order accuracy       {_num(a.pair_accuracy)}",
        f"  same question, grades >= 1 apart  {_num(a.question_pair_accuracy)}",
        f"mean absolute error       {_num(a.mae, 2)}",
    ]
    if a.by_kind:
        out.append("mean score by kind (reference mean):")
        out += [f"  {k:<18s} {m.score:5.2f}  ({m.ref:.2f})  n={m.n}" for k, m in a.by_kind.items()]
    if a.adversarial_mean is not None:
        out.append(f"mean of the adversarial kinds: {a.adversarial_mean:.2f}")
    if a.fluent_wrong_below_partial[1]:
        out.append(f"fluent-but-wrong below partial, every pair: {_share(a.fluent_wrong_below_partial)}")
        out.append(f"fluent-but-wrong below partial, question means: {_share(a.fluent_wrong_below_partial_means)}")
    listed, hits, under = a.unjudged
    if listed:
        out.append(f"'not matched to the rubric' list: on {listed} answers; {hits} of them graded {UNDER_GRADED:g}+ points "
                   f"below the reference ({hits / listed:.0%}), {hits} of the {under} answers graded that low")
    for (n, bias), verb in ((a.lifted, "raised"), (a.lowered, "lowered")):
        if n and bias is not None:
            out.append(f"resemblance to graded example answers {verb} {n} grades; those answers score {bias:+.2f} "
                       "against the reference on average")
    if a.mean_spread is not None:
        out.append(f"self-consistency spread of the score: mean {a.mean_spread:.2f}, max {a.max_spread or 0:.2f} "
                   "(0 = every sample agreed)")
    out.append(f"tokens: {run.prompt_tokens:,} prompt + {run.completion_tokens:,} completion; cost {_cost(run)}")
    if run.fallbacks:
        out.append(f"graded offline instead (unusable or refused replies): {run.fallbacks} answer(s)")
    if run.failed:
        out.append(f"not graded (left out of the figures): {len(run.failed)} answer(s)")
        out += [f"  {rid}: {err}" for rid, err in run.failed[:5]]
    return out


def text_report(a: Agreement, items: Sequence[Scored], run: RunInfo) -> str:
    lines = summary_lines(a, run)
    lines += ["", "Agreement plot: reference grade across, examiner score up, in whole points; numbers count answers, · marks perfect agreement"]
    lines += scatter(items)
    return "\n".join(lines)


def json_report(a: Agreement, items: Sequence[Scored], run: RunInfo) -> dict[str, Any]:
    def clean(x: Any) -> Any:
        if isinstance(x, float) and math.isnan(x):
            return None
        if isinstance(x, dict):
            return {k: clean(v) for k, v in x.items()}
        if isinstance(x, list | tuple):
            return [clean(v) for v in x]
        return x

    report: dict[str, Any] = clean({
        "set": run.set_label,
        "examiner": run.examiner,
        "samples": run.samples,
        "seconds": round(run.seconds, 3),
        "agreement": asdict(a),
        "tokens": {"prompt": run.prompt_tokens, "completion": run.completion_tokens},
        "cost_usd": run.cost_usd if run.examiner != "offline" else 0.0,
        "fallbacks": run.fallbacks,
        "failed": [{"id": rid, "error": err} for rid, err in run.failed],
        "answers": [asdict(s) for s in items],
    })
    return report


_CSS = """body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
pre{background:#f6f6f6;padding:1rem;overflow:auto}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:.2rem .6rem;text-align:left}circle{fill:#2a6fdb;fill-opacity:.45}
.diag{stroke:#999;stroke-dasharray:4 4}.axis{stroke:#333}text{font-size:11px}"""


def _svg(items: Sequence[Scored], size: int = 420, pad: int = 40) -> str:
    span = size - 2 * pad

    def px(v: float) -> float:
        return pad + max(0.0, min(10.0, v)) / 10 * span

    def py(v: float) -> float:
        return size - pad - max(0.0, min(10.0, v)) / 10 * span

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" role="img" '
             'aria-label="examiner score against reference grade">',
             f'<line class="axis" x1="{pad}" y1="{size - pad}" x2="{size - pad}" y2="{size - pad}"/>',
             f'<line class="axis" x1="{pad}" y1="{pad}" x2="{pad}" y2="{size - pad}"/>',
             f'<line class="diag" x1="{px(0)}" y1="{py(0)}" x2="{px(10)}" y2="{py(10)}"/>']
    for v in range(0, 11, 2):
        parts.append(f'<text x="{px(v) - 4:.1f}" y="{size - pad + 16}">{v}</text>')
        parts.append(f'<text x="{pad - 22}" y="{py(v) + 4:.1f}">{v}</text>')
    parts.append(f'<text x="{size / 2 - 40}" y="{size - 6}">reference grade</text>')
    parts.append(f'<text x="4" y="{pad - 14}">examiner score</text>')
    for s in items:
        title = html.escape(f"{s.id} ({s.question_id}, {s.lang}{', ' + s.kind if s.kind else ''}): "
                            f"reference {s.ref:g}, score {s.score:g}")
        parts.append(f'<circle cx="{px(s.ref):.1f}" cy="{py(s.score):.1f}" r="4"><title>{title}</title></circle>')
    parts.append("</svg>")
    return "".join(parts)


def html_report(a: Agreement, items: Sequence[Scored], run: RunInfo) -> str:
    """One self-contained HTML file: the figures, the plot (inline SVG) and every answer's scores."""
    rows = "".join(
        f"<tr><td>{html.escape(s.id)}</td><td>{html.escape(s.question_id)}</td><td>{html.escape(s.lang)}</td>"
        f"<td>{html.escape(s.kind or '')}</td><td>{s.ref:g}</td><td>{s.score:g}</td>"
        f"<td>{'' if s.spread is None else f'{s.spread:g}'}</td></tr>"
        for s in sorted(items, key=lambda s: abs(s.score - s.ref), reverse=True)
    )
    summary = html.escape("\n".join(summary_lines(a, run)))
    return (
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>interviewer eval: {html.escape(run.examiner)}</title><style>{_CSS}</style></head><body>"
        f"<h1>Examiner agreement: {html.escape(run.examiner)}</h1><pre>{summary}</pre>"
        f"<h2>Agreement plot</h2><p>Each dot is one answer; on the dashed diagonal the examiner agrees exactly "
        f"with the reference grade.</p>{_svg(items)}"
        "<h2>Answers, largest disagreement first</h2><table><tr><th>id</th><th>question</th><th>lang</th>"
        f"<th>kind</th><th>reference</th><th>score</th><th>spread</th></tr>{rows}</table></body></html>\n"
    )
