"""Batch input (issue 15, F7): one record per `\\n`-terminated line, whatever the characters inside it."""

from __future__ import annotations

import io
import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from interviewer.batch import MAX_LINE_BYTES, InputError, decode_line, is_blank, read_lines, split_lines
from tests.conftest import FIXTURES, run_cli

BANK = ["--bank", str(FIXTURES)]
# characters str.splitlines() treats as line breaks, which JSON allows raw inside a string
BREAKERS = "\u2028\u2029\u0085\x0b\x0c\x1c\x1d\x1e"

record = st.fixed_dictionaries({
    "id": st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from(BREAKERS), max_size=12),
    "question_id": st.just("demo-01"),
    "answer": st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from(BREAKERS), min_size=1, max_size=40),
})
item = st.one_of(
    record.map(lambda r: ("ok", r)),
    st.just(("blank", None)),
    st.binary(min_size=1, max_size=8).filter(lambda b: b"\n" not in b).map(lambda b: ("bytes", b)),
)


@given(st.lists(item, max_size=20), st.booleans())
def test_records_survive_any_characters(items: list[tuple[str, object]], crlf: bool) -> None:
    """Every JSON record comes back whole at its own line number; blank lines are skipped; a line of
    stray bytes is one error at its own line, never the end of the batch."""
    raw: list[bytes] = []
    for kind, value in items:
        if kind == "ok":
            raw.append(json.dumps(value, ensure_ascii=False).encode())
        elif kind == "blank":
            raw.append(b"   ")
        else:
            assert isinstance(value, bytes)
            raw.append(b"\xff" + value)  # never valid UTF-8, never valid JSON
    data = (b"\r\n" if crlf else b"\n").join(raw) + (b"\n" if raw else b"")
    for lines in (split_lines(data), read_lines(io.BytesIO(data))):
        assert len(lines) == len(items)
        for n, ((kind, value), line) in enumerate(zip(items, lines, strict=True), 1):
            if kind == "blank":
                assert is_blank(line)
                continue
            assert not is_blank(line)
            if kind == "ok":
                assert json.loads(decode_line(line, n)) == value
            else:
                try:
                    text = decode_line(line, n)
                except InputError as exc:
                    assert str(exc).startswith(f"line {n}: not valid UTF-8")
                else:  # pragma: no cover - b"\xff" never decodes
                    raise AssertionError(text)


def test_overlong_line_is_one_error_and_the_batch_goes_on() -> None:
    data = b'{"id": "a"}\n' + b"x" * (MAX_LINE_BYTES + 10) + b'\n{"id": "c"}\n'
    lines = read_lines(io.BytesIO(data))
    assert lines[0] == b'{"id": "a"}' and lines[2] == b'{"id": "c"}'
    assert isinstance(lines[1], InputError) and "line 2: longer than" in str(lines[1])


def test_batch_cli_with_separators_bad_bytes_and_blank_lines(tmp_path: Path) -> None:
    good = "GRPO uses the group mean reward as the baseline\u2028and no critic."
    lines = [
        json.dumps({"id": "u2028\u2028inside", "question_id": "demo-01", "answer": good}, ensure_ascii=False).encode(),
        b"",
        b'{"id": "bad", "answer": "caf\xe9"}',
        json.dumps({"id": "nel\u0085inside", "question_id": "demo-01", "answer": good}, ensure_ascii=False).encode(),
    ]
    f = tmp_path / "in.jsonl"
    f.write_bytes(b"\n".join(lines) + b"\n")
    r = run_cli(*BANK, "grade", "--batch", str(f))
    out = [json.loads(line) for line in r.stdout.splitlines()]
    assert [o["id"] for o in out] == ["u2028\u2028inside", "line-3", "nel\u0085inside"]
    assert "line 3: not valid UTF-8" in out[1]["error"]
    assert "score" in out[0] and "score" in out[2]
    assert r.returncode == 1 and "1 of 3 line(s) failed" in r.stderr


def test_batch_from_dev_zero_is_bounded() -> None:
    r = run_cli(*BANK, "grade", "--batch", "/dev/zero", timeout=60)
    out = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(out) == 1 and "longer than" in out[0]["error"] and r.returncode == 1
