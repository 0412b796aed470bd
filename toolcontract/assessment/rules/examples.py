"""What the TC8xx rules' examples are built of: an Anthropic Messages transcript (`lines` of messages),
the user's question (`USER`), `tool_use` and `tool_result` blocks (`use`, `res`) and the messages that
hold them (`assistant`, `user`)."""

from __future__ import annotations


def lines(*messages: str) -> str:
    return "[\n" + ",\n".join(messages) + "\n]\n"


USER = '{"role": "user", "content": "Weather in Paris and Lyon?"}'


def use(ident: str, city: str = "Paris") -> str:
    return f'{{"type": "tool_use", "id": "{ident}", "name": "get_weather", "input": {{"city": "{city}"}}}}'


def res(ident: str, text: str = "11 C, rain", error: bool = False) -> str:
    flag = ', "is_error": true' if error else ""
    return f'{{"type": "tool_result", "tool_use_id": "{ident}", "content": "{text}"{flag}}}'


def assistant(*blocks: str) -> str:
    return '{"role": "assistant", "content": [' + ", ".join(blocks) + "]}"


def user(*blocks: str) -> str:
    return '{"role": "user", "content": [' + ", ".join(blocks) + "]}"
