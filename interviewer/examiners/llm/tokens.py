"""Token counting that works offline, and cost from litellm's local price map.

tiktoken would download its BPE files on first use; litellm ships the
`cl100k_base` and `o200k_base` files inside its package (named by the SHA-1
of their download URL, tiktoken's cache convention). They are read from
there directly and checked against tiktoken's published SHA-256, so counting
never triggers a network fetch. Non-OpenAI models are counted with
cl100k_base: an estimate, used only when the server reports no usage and
for trimming, where a margin is kept.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

_FILES = {
    # name: (sha1 of the tiktoken download URL = file name in litellm's package, sha256 of the content)
    "cl100k_base": ("9b5ad71b2ce5302211f9c61530b329a4922fc6a4",
                    "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"),
    "o200k_base": ("fb374d419588a4632f3f557e76b4b70aebbca790",
                   "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"),
}
_PATTERNS = {
    "cl100k_base": r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
    "o200k_base": "|".join([
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]),
}
_SPECIAL = {
    "cl100k_base": {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
                    "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276},
    "o200k_base": {"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
}
_O200K_MODELS = ("gpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "chatgpt-4o", "o1", "o3", "o4")
_cache: dict[str, Any] = {}
_lock = threading.Lock()

#: per-message overhead of the chat format (role markers), as OpenAI documents it
MESSAGE_OVERHEAD = 4
REPLY_PRIMER = 3
#: context window assumed when litellm's price map does not know the model (local servers)
DEFAULT_CONTEXT = 8192


class TokenizerUnavailable(RuntimeError):
    """The bundled BPE file is missing or corrupt; counting falls back to a character estimate."""


def litellm_tokenizer_dir() -> Path:
    """litellm's bundled tokenizer folder, found without importing litellm."""
    spec = importlib.util.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        raise TokenizerUnavailable("litellm is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "litellm_core_utils" / "tokenizers"


def load_encoding(name: str) -> Any:
    """A tiktoken Encoding built from litellm's bundled file (no download, hash-checked)."""
    with _lock:
        if name in _cache:
            return _cache[name]
        import tiktoken

        fname, sha256 = _FILES[name]
        path = litellm_tokenizer_dir() / fname
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise TokenizerUnavailable(f"{path}: {exc}") from None
        if hashlib.sha256(data).hexdigest() != sha256:
            raise TokenizerUnavailable(f"{path}: unexpected content (hash mismatch)")
        ranks = {base64.b64decode(tok): int(rank) for tok, rank in (ln.split() for ln in data.splitlines() if ln)}
        enc = tiktoken.Encoding(name, pat_str=_PATTERNS[name], mergeable_ranks=ranks, special_tokens=_SPECIAL[name])
        _cache[name] = enc
        return enc


def encoding_name(model: str) -> str:
    bare = model.rsplit("/", 1)[-1].lower()
    return "o200k_base" if bare.startswith(_O200K_MODELS) else "cl100k_base"


class TokenCounter:
    """Counts tokens for one model; degrades to ~4 characters per token if the BPE file is unusable."""

    CACHE = 64  # recent texts: the system prefix and transcript are counted on every call

    def __init__(self, model: str) -> None:
        self.model = model
        self._enc: Any = None
        self._failed = False
        self._seen: dict[str, int] = {}

    def _encoding(self) -> Any:
        if self._enc is None and not self._failed:
            try:
                self._enc = load_encoding(encoding_name(self.model))
            except (TokenizerUnavailable, ImportError, ValueError):
                self._failed = True
        return self._enc

    def count(self, text: str) -> int:
        cached = self._seen.get(text)
        if cached is not None:
            return cached
        enc = self._encoding()
        n = (len(text) + 3) // 4 if enc is None else len(enc.encode(text, disallowed_special=()))
        if len(self._seen) >= self.CACHE:
            self._seen.pop(next(iter(self._seen)))
        self._seen[text] = n
        return n

    def count_messages(self, messages: list[dict[str, str]]) -> int:
        return sum(MESSAGE_OVERHEAD + self.count(m.get("content") or "") for m in messages) + REPLY_PRIMER


@dataclass(frozen=True)
class ModelInfo:
    """What litellm's local map knows about a model; None where it does not."""

    model: str
    input_cost: float | None = None  # USD per prompt token
    output_cost: float | None = None  # USD per completion token
    max_input_tokens: int | None = None
    max_output_tokens: int | None = None
    supports_schema: bool = False

    @property
    def priced(self) -> bool:
        return self.input_cost is not None and self.output_cost is not None

    @property
    def context_window(self) -> int:
        return self.max_input_tokens or DEFAULT_CONTEXT

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float | None:
        """USD for one call, or None when the price is unknown."""
        if self.input_cost is None or self.output_cost is None:
            return None
        return prompt_tokens * self.input_cost + completion_tokens * self.output_cost


def model_info(litellm: Any, model: str) -> ModelInfo:
    """Read prices, context window and schema support from litellm's local map (never the network)."""
    try:
        info = litellm.get_model_info(model)
    except Exception:  # litellm raises several types for an unmapped model
        info = {}
    try:
        schema = bool(litellm.supports_response_schema(model))
    except Exception:
        schema = False

    def num(key: str) -> Any:
        value = info.get(key)
        return value if isinstance(value, int | float) and value >= 0 else None

    return ModelInfo(
        model=model,
        input_cost=num("input_cost_per_token"),
        output_cost=num("output_cost_per_token"),
        max_input_tokens=num("max_input_tokens"),
        max_output_tokens=num("max_output_tokens"),
        supports_schema=schema,
    )


class UsageSink(Protocol):
    """Where totals go: the interview record's Usage (prompt/completion tokens, cost or None)."""

    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None


@dataclass
class UsageTotals:
    """Totals when no interview record is bound (batch grading, doctor)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = 0.0


@dataclass
class CallUsage:
    """One LLM call: what it was for, which model, tokens, cost (None = unknown) and latency."""

    kind: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None
    seconds: float
    reported: bool  # True when the server reported the token counts


@dataclass
class UsageMeter:
    """Per-call records and running totals, written into the bound sink."""

    sink: UsageSink = field(default_factory=UsageTotals)
    calls: list[CallUsage] = field(default_factory=list)

    def add(self, call: CallUsage) -> None:
        self.calls.append(call)
        self.sink.prompt_tokens += call.prompt_tokens
        self.sink.completion_tokens += call.completion_tokens
        if call.cost_usd is None or self.sink.cost_usd is None:
            self.sink.cost_usd = None
        else:
            self.sink.cost_usd = round(self.sink.cost_usd + call.cost_usd, 8)

    @property
    def known_cost(self) -> float:
        """USD spent on calls whose price is known (what a budget can be checked against)."""
        return sum(c.cost_usd for c in self.calls if c.cost_usd is not None)


def format_cost(cost: float | None) -> str:
    return "unknown" if cost is None else f"${cost:.4f}"
