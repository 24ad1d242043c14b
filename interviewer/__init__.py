"""interviewer: a terminal mock interviewer for RL and LLM-infrastructure roles."""

__version__ = "0.1.0"
