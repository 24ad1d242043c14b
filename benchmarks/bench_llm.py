"""LLM examiner: app-added latency per call, and prompt tokens per call.

    python benchmarks/bench_llm.py [--calls 40] [--question algo-01]

Runs the real LLMExaminer (litellm and all) against the local fake
OpenAI-compatible server of the tests, started in a separate process so it
does not share the GIL with the examiner. For each call it prints:

* submit -> request on the wire: from `await examiner.grade()/next_probe()`
  to the server having read the whole request (an upper bound: it includes
  the server's own parsing), target <= 10 ms;
* last byte -> result: from the server writing the reply's last byte to the
  grade (or the fully streamed probe) being in the caller's hands, target <= 10 ms;

Between calls the benchmark idles 20 ms, as an interview does while the
candidate types: work that litellm schedules after a reply (its logging
tasks) and the reading of a finished probe's usage trailer happen there,
not inside the measured spans.

And, for a typical question with 2 follow-ups (a real bank question with a
rubric, the partial answer from its calibration set), the prompt tokens of
each call as sent: probe 1, probe 2 and the grade, for a model with
structured-output support (schema in response_format) and one without
(schema in the prompt), target <= 2,500.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OPENAI_API_KEY", "sk-bench-not-a-real-key")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from interviewer.bank.loader import load_bank  # noqa: E402
from interviewer.bank.models import Question  # noqa: E402
from interviewer.examiners.base import Exchange, Turn  # noqa: E402
from interviewer.examiners.llm.examiner import LLMExaminer  # noqa: E402
from interviewer.examiners.llm.policy import RetryPolicy  # noqa: E402
from interviewer.examiners.llm.tokens import TokenCounter  # noqa: E402

FOLLOW_UPS = ["I think it mostly matters for stability, but I am not sure how exactly.",
              "The critic is trained with TD learning, so it has some bias."]


def serve(conn: Any) -> None:
    """The fake model server, in its own process; reports each request's timestamps."""
    from tests.llm.fakeserver import FakeLLM, Reply, Seen
    from tests.llm.oracle import Oracle

    bank = load_bank()
    oracle = Oracle(bank)
    server = FakeLLM()

    def responder(seen: Seen) -> Reply:
        reply = oracle(seen)
        if seen.body.get("stream") and reply.content and reply.content != "NONE":
            # a token or two per chunk, at a pace a fast model streams (~4 ms per chunk): the client
            # keeps up, so "last byte -> result" measures the tail, not a backlog of unread chunks
            reply.chunks = [reply.content[i : i + 8] for i in range(0, len(reply.content), 8)]
            reply.chunk_delay = 0.004
        return reply

    server.responder = responder
    server.on_done = lambda seen: conn.send(("seen", seen.received_at, seen.done_at, seen.body))
    conn.send(("url", server.url))
    conn.recv()  # wait for "stop"
    server.close()


def typical_exchange(q: Question) -> tuple[str, list[Turn]]:
    from interviewer.calibration import load_all

    answers = [a for a in load_all(ROOT / "tests" / "data" / "calibration") if a.question_id == q.id and a.lang == "en"]
    partial = next((a.answer for a in answers if a.kind == "partial"), None)
    answer = partial or " ".join(k.statement.en for k in (q.rubric.key_points[:2] if q.rubric else []))
    return answer, [Turn("examiner", "question", q.text.en), Turn("candidate", "answer", answer)]


async def measure(url: str, conn: Any, q: Question, calls: int) -> dict[str, list[tuple[float, float]]]:
    ex = LLMExaminer("openai/test-model", api_base=url, policy=RetryPolicy(max_attempts=1))
    _, turns = typical_exchange(q)
    out: dict[str, list[tuple[float, float]]] = {"grade": [], "probe": []}

    async def one(kind: str) -> tuple[float, float]:
        exchange = Exchange(q, "en", list(turns), max_probes=2)
        # Calls in an interview are seconds apart (the candidate types). Idle a little, as the app
        # would: litellm's own logging tasks and a finished probe's usage trailer run in that gap.
        await ex.aclose()
        await asyncio.sleep(0.02)
        t0 = time.perf_counter()
        if kind == "grade":
            await ex.grade(exchange)
        else:
            probe = await ex.next_probe(exchange)
            if probe is not None:
                await probe.collect()
        t1 = time.perf_counter()
        tag, recv, done, _ = conn.recv()
        assert tag == "seen"
        return recv - t0, t1 - done

    for _ in range(3):  # warm up: litellm import, client creation, tokenizer load
        await one("grade")
        await one("probe")
    for _ in range(calls):
        out["grade"].append(await one("grade"))
        out["probe"].append(await one("probe"))
    return out


async def token_run(url: str, conn: Any, q: Question, model: str) -> list[tuple[str, int, int]]:
    """One typical question: probe, answer, probe, answer, grade. Returns (call, prompt tokens, schema tokens)."""
    ex = LLMExaminer(model, api_base=url, policy=RetryPolicy(max_attempts=1))
    counter = TokenCounter(model)
    _, turns = typical_exchange(q)
    exchange = Exchange(q, "en", list(turns), max_probes=2)
    rows: list[tuple[str, int, int]] = []
    for i in range(2):
        probe = await ex.next_probe(exchange)
        _, _, _, body = conn.recv()
        rows.append((f"probe {i + 1}", counter.count_messages(body["messages"]), 0))
        text = await probe.collect() if probe else "(none)"
        exchange.turns += [Turn("examiner", "probe", text, probe.key_point_id if probe else None),
                           Turn("candidate", "answer", FOLLOW_UPS[i])]
    await ex.grade(exchange)
    _, _, _, body = conn.recv()
    schema = body.get("response_format")
    rows.append(("grade", counter.count_messages(body["messages"]),
                 counter.count(json.dumps(schema)) if schema else 0))
    return rows


def ms(values: list[float]) -> str:
    vs = sorted(v * 1000 for v in values)
    p95 = vs[min(len(vs) - 1, int(0.95 * len(vs)))]
    return f"median {statistics.median(vs):6.2f} ms   p95 {p95:6.2f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calls", type=int, default=40)
    ap.add_argument("--question", default="algo-01")
    args = ap.parse_args()
    q = load_bank().get(args.question)
    if q.rubric is None:
        sys.exit(f"{args.question} has no rubric")
    parent, child = mp.get_context("fork").Pipe()
    proc = mp.get_context("fork").Process(target=serve, args=(child,), daemon=True)
    proc.start()
    _, url = parent.recv()
    try:
        lat = asyncio.run(measure(url, parent, q, args.calls))
        tokens = {m: asyncio.run(token_run(url, parent, q, m)) for m in ("openai/gpt-4.1-mini", "openai/test-model")}
    finally:
        parent.send("stop")
        proc.join(5)
    print(f"LLM examiner against a local fake server ({args.calls} calls each, after warm-up)")
    print("App-added latency per call (target <= 10 ms each):")
    for kind in ("grade", "probe"):
        wire = [a for a, _ in lat[kind]]
        back = [b for _, b in lat[kind]]
        label = "grade (JSON)" if kind == "grade" else "probe (SSE) "
        print(f"  {label}  submit -> request on the wire: {ms(wire)}")
        print(f"  {label}  last byte -> result:           {ms(back)}")
    print(f"Prompt tokens per call, {q.id} with 2 follow-ups (target <= 2,500):")
    for model, rows in tokens.items():
        mode = "schema in response_format" if any(s for _, _, s in rows) else "schema in the prompt"
        print(f"  {model} ({mode}):")
        for name, n, schema in rows:
            extra = f" + {schema} for the response_format schema" if schema else ""
            print(f"    {name:<8} {n:5d} tokens{extra}")


if __name__ == "__main__":
    main()
