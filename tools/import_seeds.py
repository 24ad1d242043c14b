"""Create question_bank/*.yaml skeletons (id, track, topics, difficulty, text) from the seed files.

Run once when the seeds change: `python tools/import_seeds.py ../shared/seeds`.
Existing rubric sections are preserved; only the `text` block is rewritten.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

TOPICS: dict[str, tuple[list[str], str]] = {
    "algo-01": (["actor-critic", "policy-gradient", "value-based"], "foundational"),
    "algo-02": (["kl-divergence", "cross-entropy", "mle", "information-theory"], "foundational"),
    "algo-03": (["reward-design", "reward-hacking", "verifiable-rewards"], "intermediate"),
    "algo-04": (["importance-sampling", "rejection-sampling", "monte-carlo", "off-policy"], "intermediate"),
    "algo-05": (["advantage", "ppo", "grpo", "baseline", "gae"], "foundational"),
    "algo-06": (["exploration", "test-time-scaling", "entropy"], "intermediate"),
    "algo-07": (["ppo", "clipping", "cispo", "trust-region"], "intermediate"),
    "algo-08": (["grpo", "kl-penalty", "kl-estimators", "dapo", "gspo"], "intermediate"),
    "algo-09": (["all-reduce", "distributed-training", "loss-scaling", "gradient-accumulation"], "intermediate"),
    "algo-10": (["dpo", "preference-optimization", "reward-hacking"], "intermediate"),
    "algo-11": (["moe", "train-inference-mismatch", "routing-replay", "importance-sampling"], "advanced"),
    "algo-12": (["hyperparameters", "grpo", "ppo", "group-size", "learning-rate"], "intermediate"),
    "algo-13": (["grpo-variants", "dr-grpo", "dapo", "gspo", "cispo", "sapo", "dppo", "maxrl", "simko"], "advanced"),
    "algo-14": (["trust-region", "trpo", "dppo", "areal"], "advanced"),
    "algo-15": (["rlvr", "capability-frontier", "pass-at-k"], "advanced"),
    "algo-16": (["prorl", "rl-scaling", "entropy-collapse"], "advanced"),
    "algo-17": (["on-policy-distillation", "distillation", "sft"], "advanced"),
    "algo-18": (["reasoning", "pretraining", "mid-training", "rl"], "advanced"),
    "algo-19": (["deepseek", "moe", "grpo", "rl-infrastructure"], "advanced"),
    "infra-01": (["memory", "grpo", "zero", "fsdp", "lora"], "intermediate"),
    "infra-02": (["distributed-inference", "kv-cache", "prefill-decode-disaggregation", "collectives"], "advanced"),
    "infra-03": (["quantization", "int8", "fp8", "mixed-precision"], "intermediate"),
    "infra-04": (["rollout", "long-tail", "asynchronous-rl", "partial-rollout"], "intermediate"),
    "infra-05": (["continuous-batching", "vllm", "sglang", "rollout"], "intermediate"),
    "infra-06": (["vllm", "sglang", "metrics", "kv-cache", "utilization"], "intermediate"),
    "infra-07": (["backpropagation", "data-parallelism", "model-parallelism", "multi-node"], "intermediate"),
    "infra-08": (["asynchronous-rl", "frameworks", "weight-sync"], "advanced"),
    "infra-09": (["areal", "partial-rollout", "kv-cache", "interruptible-generation"], "advanced"),
    "infra-10": (["moe", "expert-parallelism", "all-to-all", "load-balancing"], "advanced"),
    "infra-11": (["long-context", "context-parallelism", "megatron", "fsdp", "overlap"], "advanced"),
    "infra-12": (["determinism", "batch-invariance", "atomic-add", "floating-point"], "advanced"),
    "infra-13": (["areal", "slime", "rollout-bottleneck", "asynchronous-rl"], "advanced"),
    "infra-14": (["staleness", "asynchronous-rl", "off-policy"], "advanced"),
    "infra-15": (["slime", "megatron", "sglang", "data-flow", "loss"], "advanced"),
    "infra-16": (["frameworks", "verl", "trl", "unsloth", "areal", "slime"], "intermediate"),
}


def _split(lines: list[str], algo_heading: str, infra_heading: str, item: re.Pattern[str]) -> list[str]:
    out: list[str] = []
    section = None
    for line in lines:
        s = line.strip()
        if s == algo_heading:
            section = "algo"
            continue
        if s == infra_heading:
            section = "infra"
            continue
        m = item.match(s)
        if section and m:
            out.append(m.group(1).strip())
    return out


# Typos in the seed documents, corrected in the bank: (language, question number from 0, wrong, right).
SEED_TYPOS = [("it", 7, "GSPo", "GSPO")]


def read_seeds(seeds: Path) -> dict[str, list[str]]:
    en = next(seeds.glob("000_*.txt")).read_text(encoding="utf-8").splitlines()
    it = next(seeds.glob("002_*.txt")).read_text(encoding="utf-8").splitlines()
    ja = next(seeds.glob("004_*.txt")).read_text(encoding="utf-8").splitlines()
    texts = {
        "en": _split(en, "Algorithm", "Infrastructure", re.compile(r"^•\s*(.+)$")),
        "it": _split(it, "Algoritmo", "Infrastruttura", re.compile(r"^\d+\.\s*(.+)$")),
        "ja": _split(ja, "アルゴリズム", "インフラ", re.compile(r"^-\s*(.+)$")),
    }
    for lang, items in texts.items():
        if len(items) != 35:
            raise SystemExit(f"{lang}: expected 35 questions, found {len(items)}")
    for lang, n, wrong, right in SEED_TYPOS:
        texts[lang][n] = texts[lang][n].replace(wrong, right)
    return texts


def ids() -> list[str]:
    return [f"algo-{i:02d}" for i in range(1, 20)] + [f"infra-{i:02d}" for i in range(1, 17)]


def main(seeds: Path, out: Path) -> None:
    texts = read_seeds(seeds)
    for n, qid in enumerate(ids()):
        path = out / f"{qid}.yaml"
        old = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else {}
        topics, difficulty = TOPICS[qid]
        doc = {
            "id": qid,
            "track": "algorithm" if qid.startswith("algo") else "infrastructure",
            "topics": old.get("topics", topics),
            "difficulty": old.get("difficulty", difficulty),
            "text": {lang: texts[lang][n] for lang in ("en", "it", "ja")},
        }
        if "rubric" in old:
            doc["rubric"] = old["rubric"]
        path.write_text(
            yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=100), encoding="utf-8"
        )


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/seeds"), Path("question_bank"))
