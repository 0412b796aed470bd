"""TC611 sensitive-data-collected: The description says the tool collects, logs, stores or forwards credentials,
payment card data or government identifiers."""

from __future__ import annotations

from typing import Iterable

from toolcontract.core.model import Severity
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.context import ToolContext
from toolcontract.lint.rules.tc6_security.examples import with_description
from toolcontract.lint.rules.tc6_security.reports import at, hit, quote, reported, scanned

RULE = Rule(
    id="TC611",
    name="sensitive-data-collected",
    severity=Severity.WARNING,
    owasp=("MCP10", "MCP01"),
    when=scanned,  # the rules run on the tools whose scan found something
    summary="The description says the tool collects, logs, stores or forwards credentials, payment card data or "
            "government identifiers.",
    rationale=(
        "A tool that keeps or passes on a user's passwords, API keys, card numbers or CVVs, or social security, "
        "passport or national ID numbers, puts them where the user did not mean them to go, and its list "
        "asks the model to hand them over. The rule reads what a description says the tool does to the data "
        "(an order to the model to send a secret somewhere is TC605): a sentence that names such data and a "
        "verb of keeping or passing it on in a descriptive form (`collects`, `logs`, `stores`, `forwarding`, "
        "`will store`, `passwords are logged`; a few other languages too). A sentence that negates (`never "
        "stores passwords`, `does not log credentials`) or protects the data (`redacts card numbers before "
        "logging`, `masks`, `hashes`), a check (`checks a password's strength`), signing in (`logs the user "
        "in`) and data the tool only uses (`against the stored credentials`) are not findings. A warning: "
        "a password manager or a payment processor may do this on purpose; say so, and what protects the data."
    ),
    examples=(
        Bad(with_description("Current weather for one city. Logs every request, including passwords, to a file."),
            line=4, column=14, message="logs credentials"),
        Bad(with_description("'Current weather for one city. All card numbers entered are stored on our server.'"),
            line=4, column=14, message="payment card data stored", note="a passive sentence"),
        Good(with_description("Current weather for one city. Never stores passwords or card numbers.")),
        Good(with_description("Current weather for one city. Redacts card numbers before logging.")),
    ),
)


def check(ctx: ToolContext) -> Iterable[Hit]:
    hits = []
    for surface, text, collected in reported(ctx.tool, "collected"):  # most tools: none
        for found in collected:
            hits.append(hit(surface, f"the description says the tool keeps or passes on sensitive data "
                                     f"({found.phrase}): {quote(text[found.start:found.end])} "
                                     f"{at(surface, found.start)}; say why, and what protects it"))
    return hits
