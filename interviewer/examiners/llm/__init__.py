"""The LLM examiner: any model through LiteLLM, behind the offline examiner's interface.

Nothing in this package imports litellm at module level: `runtime.load_litellm`
does it on the first real call, so the offline paths and `--help` stay fast
and never touch the network.
"""
