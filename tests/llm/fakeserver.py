"""A real HTTP server on 127.0.0.1 that speaks OpenAI chat completions (JSON and SSE), scriptable per test.

Each request takes the next scripted Reply, else asks `responder`, else
answers "OK". `Flaky` wraps a responder with seeded random 429/500 faults;
`drip` and `hang` script a slow stream and a read timeout. A reply with `content` is streamed in small chunks when the
request asked for a stream; `chunks` are sent as given. Failure modes: an
HTTP error with headers, a delay before the headers (read timeout), a stream
cut after N chunks (connection dropped mid-way), a stall mid-stream.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    status: int = 200
    content: str | None = None
    chunks: list[str] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    error: str | None = None
    delay: float = 0.0  # seconds before the status line
    chunk_delay: float = 0.0
    cut_after: int | None = None  # stream: drop the connection after this many chunks
    stall_after: int | None = None  # stream: stop sending (until the client gives up) after this many chunks
    usage: tuple[int, int] | None = None
    raw: bytes | None = None  # a 200 body sent as is (e.g. not JSON at all)

    @classmethod
    def text(cls, content: str, **kw: Any) -> Reply:
        return cls(content=content, **kw)

    @classmethod
    def stream(cls, chunks: list[str], **kw: Any) -> Reply:
        return cls(chunks=chunks, **kw)

    @classmethod
    def fail(cls, status: int, message: str = "error", headers: dict[str, str] | None = None, **kw: Any) -> Reply:
        return cls(status=status, error=message, headers=headers or {}, **kw)


@dataclass
class Seen:
    """One request as the server saw it, with perf_counter timestamps (same clock as the test)."""

    body: dict[str, Any]
    headers: dict[str, str]
    received_at: float
    done_at: float = 0.0

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages", []))

    @property
    def user(self) -> str:
        return str(self.messages[-1]["content"]) if self.messages else ""


class Flaky:
    """A responder that fails a share of requests at random (seeded): 429 or 500, no Retry-After.

    Wraps another responder (e.g. the Oracle) for fault-injection tests; `failed` counts the faults.
    """

    def __init__(self, inner: Callable[[Seen], Reply], rate: float, seed: int,
                 statuses: tuple[int, ...] = (429, 500)) -> None:
        import random

        self.inner, self.rate, self.statuses = inner, rate, statuses
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.failed = 0

    def __call__(self, seen: Seen) -> Reply:
        with self.lock:
            fail = self.rng.random() < self.rate
            status = self.rng.choice(self.statuses)
            if fail:
                self.failed += 1
        if fail:
            return Reply.fail(status, "injected fault")
        return self.inner(seen)


def drip(text: str, every: float) -> Reply:
    """A stream that sends one short piece every `every` seconds (a slow or stuck model)."""
    return Reply(chunks=_split(text, 3), chunk_delay=every)


def hang(seconds: float) -> Reply:
    """No status line for `seconds`: the client's read timeout fires first."""
    return Reply(content="late", delay=seconds)


def _split(text: str, size: int = 6) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


class FakeLLM:
    """The server; `url` is the api_base to give litellm."""

    def __init__(self) -> None:
        self.queue: deque[Reply] = deque()
        self.responder: Callable[[Seen], Reply] | None = None
        self.on_done: Callable[[Seen], None] | None = None  # called once a reply is fully written
        self.requests: list[Seen] = []
        self.stop = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def setup(self) -> None:
                super().setup()
                # no Nagle: headers and body go out as written, as a real server's would
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                seen = Seen(json.loads(raw or b"{}"), {k.lower(): v for k, v in self.headers.items()},
                            time.perf_counter())
                outer.requests.append(seen)
                reply = outer.next_reply(seen)
                try:
                    outer.serve(self, seen, reply)
                except (BrokenPipeError, ConnectionResetError, OSError):
                    self.close_connection = True
                seen.done_at = time.perf_counter()
                if outer.on_done is not None:
                    outer.on_done(seen)

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # clients hang up on keep-alive connections; that is not a test failure

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
        self.thread.start()
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/v1"

    def script(self, *replies: Reply) -> None:
        self.queue.extend(replies)

    def next_reply(self, seen: Seen) -> Reply:
        if self.queue:
            return self.queue.popleft()
        if self.responder is not None:
            return self.responder(seen)
        return Reply.text("OK")

    def close(self) -> None:
        self.stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    # -- writing replies --------------------------------------------------------
    def serve(self, h: BaseHTTPRequestHandler, seen: Seen, r: Reply) -> None:
        if r.delay and self.stop.wait(r.delay):
            return
        if r.error is not None or r.status >= 400:
            body = json.dumps({"error": {"message": r.error or "error", "type": "fake", "code": r.status}}).encode()
            self._head(h, r.status, "application/json", len(body), r.headers)
            h.wfile.write(body)
            return
        model = str(seen.body.get("model", "test-model"))
        if r.raw is not None:
            self._head(h, 200, "application/json", len(r.raw), r.headers)
            h.wfile.write(r.raw)
            return
        if seen.body.get("stream"):
            self._stream(h, model, r)
            return
        content = r.content if r.content is not None else "".join(r.chunks or [])
        p, c = r.usage or (111, max(1, len(content) // 4))
        body = json.dumps({
            "id": "chatcmpl-fake", "object": "chat.completion", "created": 1, "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c},
        }).encode()
        self._head(h, 200, "application/json", len(body), r.headers)
        h.wfile.write(body)

    def _head(self, h: BaseHTTPRequestHandler, status: int, ctype: str, length: int | None, extra: dict[str, str]) -> None:
        h.send_response(status)
        h.send_header("content-type", ctype)
        if length is None:
            h.send_header("transfer-encoding", "chunked")
        else:
            h.send_header("content-length", str(length))
        for k, v in extra.items():
            h.send_header(k, v)
        h.end_headers()

    def _stream(self, h: BaseHTTPRequestHandler, model: str, r: Reply) -> None:
        pieces = r.chunks if r.chunks is not None else _split(r.content or "")
        self._head(h, 200, "text/event-stream", None, r.headers)

        def event(obj: Any) -> None:
            data = f"data: {obj if isinstance(obj, str) else json.dumps(obj)}\n\n".encode()
            h.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            h.wfile.flush()

        def chunk(delta: dict[str, Any], finish: str | None = None, usage: Any = None) -> dict[str, Any]:
            out: dict[str, Any] = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1,
                                   "model": model, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
            if usage is not None:
                out["usage"] = usage
                out["choices"] = []
            return out

        event(chunk({"role": "assistant", "content": ""}))
        for i, piece in enumerate(pieces):
            if r.cut_after is not None and i >= r.cut_after:
                h.connection.shutdown(socket.SHUT_RDWR)  # no terminating chunk: the stream is cut
                h.close_connection = True
                return
            if r.stall_after is not None and i >= r.stall_after:
                self.stop.wait(30)
                h.close_connection = True
                return
            if r.chunk_delay:
                time.sleep(r.chunk_delay)
            event(chunk({"content": piece}))
        event(chunk({}, "stop"))
        p, c = r.usage or (111, max(1, len("".join(pieces)) // 4))
        event(chunk({}, usage={"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}))
        done = b"data: [DONE]\n\n"
        h.wfile.write(f"{len(done):x}\r\n".encode() + done + b"\r\n0\r\n\r\n")  # last event and end together
        h.wfile.flush()
