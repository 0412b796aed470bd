"""TC904 url-insecure: an Agent Card's interface, provider, documentation or icon URL is not https, or
points at a private, loopback or link-local address."""

from __future__ import annotations

from typing import Iterator
from urllib.parse import urlsplit

from toolcontract.core.model import Severity
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.context import ToolContext
from toolcontract.lint.rules.tc9_card.card import card_of, example
from toolcontract.security.addresses import internal_host

RULE = Rule(
    id="TC904",
    name="url-insecure",
    severity=Severity.ERROR,
    summary="An Agent Card URL (interface, provider, documentation, icon) is not https, or points into a "
            "private, loopback or link-local network.",
    rationale=(
        "A client follows a card's URLs: it sends its requests (and credentials) to the interfaces and "
        "fetches the icon and documentation. Over plain http anyone on the path reads and changes them; a "
        "public card that names a private, loopback or link-local address sends each client into its own "
        "network (a2a-python#975 asks clients to refuse both)."
    ),
    examples=(
        Bad(example(("https://agent.example.com/a2a/v1", "http://agent.example.com/a2a/v1")), line=5, column=10,
            message="is not https"),
        Bad(example(("https://agent.example.com/a2a/v1", "http://localhost:10999")), line=5, column=10,
            message="is not https and points at a loopback address", note="a local development card"),
        Bad(example(("https://agent.example.com/a2a/v1", "https://10.0.0.7/a2a/v1")), line=5, column=10,
            message="points at a private address (10.0.0.7)"),
        Bad(example(("skills:\n", "iconUrl: https://169.254.169.254/icon.png\nskills:\n")), line=11, column=10,
            message="a cloud metadata endpoint"),
        Good(example(("skills:\n", "provider: {organization: Example, url: https://example.com}\nskills:\n"))),
    ),
)


def urls(card: dict) -> Iterator[tuple[tuple, str]]:
    """Every URL a client follows: interfaces (v1.0 and v0.3), provider, documentation and icon."""
    for key in ("url", "documentationUrl", "iconUrl"):
        if isinstance(card.get(key), str):
            yield (key,), card[key]
    for key in ("supportedInterfaces", "additionalInterfaces"):
        interfaces = card.get(key)
        if isinstance(interfaces, list):
            for index, interface in enumerate(interfaces):
                if isinstance(interface, dict) and isinstance(interface.get("url"), str):
                    yield (key, index, "url"), interface["url"]
    provider = card.get("provider")
    if isinstance(provider, dict) and isinstance(provider.get("url"), str):
        yield ("provider", "url"), provider["url"]


def check(ctx: ToolContext) -> Iterator[Hit]:
    card = card_of(ctx.tool)
    if card is None:
        return
    for path, url in urls(card):
        try:
            parts = urlsplit(url.strip())
            host = parts.hostname or ""
        except ValueError:
            yield Hit(path, f"URL {url!r} is not a URL")
            continue
        internal = internal_host(host)
        if parts.scheme.lower() != "https":
            if internal:
                yield Hit(path, f"URL {url!r} is not https and points at {internal}: a card for local "
                          "development; a published card names the agent's public https address")
            else:
                yield Hit(path, f"URL {url!r} is not https: a client sends requests and credentials to it in "
                          "the clear")
            continue
        if internal:
            yield Hit(path, f"URL {url!r} points at {internal}: a public card "
                      "must not send clients into their own network")
