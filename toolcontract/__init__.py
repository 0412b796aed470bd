"""toolcontract: lint LLM tool-calling contracts and assess recorded tool calls."""

__version__ = "0.1.0"
