"""The HTML report: score bars filled to the score, answers kept as typed (newcomer items 13, 18)."""

from __future__ import annotations

import asyncio
import re

from interviewer.bank.loader import Bank
from interviewer.engine.interview import Interview
from interviewer.engine.record import Plan
from interviewer.examiners.offline.examiner import OfflineExaminer
from interviewer.reports import report_html, report_markdown


def test_bars_are_blocks_filled_to_the_score_and_answers_keep_their_lines(demo_bank: Bank) -> None:
    iv = Interview.start(Plan(question_ids=["demo-01"], follow_ups=0), demo_bank, OfflineExaminer())
    asyncio.run(iv.submit_answer("GRPO uses the group mean reward as the baseline.\n<br> __init__ </think>"))
    iv.advance()
    page = report_html(iv.record, demo_bank)
    css = re.search(r"\.fill\{([^}]*)\}", page)
    # an inline <span> ignores width/height: the fill must be a block inside the inline-block bar
    assert css is not None and "display:block" in css.group(1)
    widths = re.findall(r"class='fill' style='width:(\d+)%'", page)
    grade = iv.record.questions[0].grade
    assert grade is not None
    assert widths == [str(round(100 * c.score / c.max)) for c in grade.criteria] and "100" in widths and "0" in widths
    assert re.search(r"\.turn\{[^}]*white-space:pre-wrap", page)
    assert "baseline.\n&lt;br&gt; __init__ &lt;/think&gt;" in page
    md = report_markdown(iv.record, demo_bank)
    assert "\\<br\\> \\_\\_init\\_\\_ \\</think\\>" in md  # escaped for Markdown, shown as typed


def test_reports_show_what_the_grade_could_not_judge_and_the_second_opinion(bank: Bank) -> None:
    from interviewer.examiners.grade import Grade
    from interviewer.reports import report_json
    from tests.test_offline_unjudged import PLAIN

    iv = Interview.start(Plan(question_ids=["algo-03"], follow_ups=0, lang="it"), bank, OfflineExaminer())
    asyncio.run(iv.submit_answer(PLAIN["it"] + " <b>x</b>"))

    class Model(OfflineExaminer):  # stands in for the LLM examiner: a grade under another examiner's name
        name = "openai/test-model"

        async def grade(self, exchange):  # type: ignore[no-untyped-def]
            g: Grade = await super().grade(exchange)
            return g.model_copy(update={"examiner": self.name, "overall": 6.5, "unjudged": []})

    second = asyncio.run(iv.second_opinion(Model()))
    iv.advance()
    q = iv.record.questions[0]
    assert q.grade is not None and q.grade.examiner == "offline" and q.grade.unjudged
    assert q.second_opinion == second and second.overall == 6.5
    page = report_html(iv.record, bank)
    assert "<h3>Non riconosciuto dai criteri</h3>" in page and "<h3>Secondo parere</h3>" in page
    assert "&lt;b&gt;x&lt;/b&gt;" in page and "<b>x</b>" not in page
    assert page.index("Secondo parere") < page.index("6.5/10")
    md = report_markdown(iv.record, bank)
    assert "### Non riconosciuto dai criteri" in md and "### Secondo parere" in md
    assert '"second_opinion": {' in report_json(iv.record)
