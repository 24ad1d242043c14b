"""Whether a grade request carries `response_format: json_schema` or the schema in the prompt.

litellm's model map knows which hosted models support JSON-schema output,
but it knows nothing about a self-hosted model (every vLLM/SGLang model
behind `--api-base`), although those servers do support JSON-schema guided
decoding, as Ollama does. So: the schema goes in `response_format` when the
map says so, when an OpenAI-compatible base URL is set, or when the provider
is one of the self-hosted ones; the examiner falls back to the schema in the
prompt only when the server refuses (an HTTP 400 naming response_format or
json_schema), and remembers that for the model.
"""

from __future__ import annotations

from interviewer.examiners.llm.errors import provider_of

#: providers whose servers accept OpenAI-style `response_format: json_schema`
SELF_HOSTED = frozenset(
    {"hosted_vllm", "vllm", "openai_like", "custom_openai", "ollama", "ollama_chat", "lm_studio", "llamafile",
     "sglang"}
)


def schema_mode(model: str, api_base: str | None, map_supports_schema: bool) -> tuple[bool, str]:
    """(send response_format?, why), for one model and endpoint."""
    if map_supports_schema:
        return True, "json_schema in response_format (litellm's model map lists support)"
    if api_base:
        return True, "json_schema in response_format (OpenAI-compatible server at the api base; schema in the prompt if it refuses)"
    provider = provider_of(model)
    if provider in SELF_HOSTED:
        return True, f"json_schema in response_format ({provider} supports guided JSON; schema in the prompt if it refuses)"
    return False, "schema in the prompt (litellm's model map does not list JSON-schema support)"
