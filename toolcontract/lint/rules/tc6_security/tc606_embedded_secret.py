"""TC606 embedded-secret: A descriptor contains an API key, token or private key."""

from __future__ import annotations

from typing import Iterable, Iterator

from toolcontract.core.descriptor import ToolView
from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc6_security.examples import WEATHER, with_description
from toolcontract.lint.rules.tc6_security.reports import at, hit, reports, scanned
from toolcontract.core.model import Severity

RULE = Rule(
    id="TC606",
    name="embedded-secret",
    severity=Severity.ERROR,
    owasp=("MCP01",),
    when=scanned,  # the rules run on the tools whose scan found something
    summary="A descriptor contains an API key, token or private key.",
    rationale=(
        "Descriptors are committed, published and sent to every model that loads the tool, so a key in "
        "an example, a default or a description is leaked the moment it is written: rotate it. Keys are "
        "recognised by their providers' published formats (AWS AKIA…, GitHub ghp_/github_pat_, OpenAI "
        "and Anthropic sk-…, Stripe, Slack xox…, Google AIza…, Hugging Face, npm, SendGrid, private key "
        "blocks, JWTs, bearer tokens) and, carefully, by assignments such as `api_key=...` whose value "
        "is long, mixes letters and digits, is not a placeholder and has high entropy. The finding shows "
        "only the first four characters."
    ),
    examples=(
        Bad(WEATHER.replace("  required", "    token: {type: string, description: Service token., default: "
                            "ghp_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78}\n  required"),
            line=9, column=65, message="a GitHub token at character 1"),
        Bad(with_description("'Current weather. Uses api_key=Zq81xV0pLm3T7bWc5RnY2dHs for the upstream service.'"),
            line=4, column=14, message="a credential assigned in the text",
            note="an assignment with a high-entropy value"),
        Good(WEATHER.replace("  required", "    token: {type: string, description: 'Service token, e.g. "
                             "YOUR_API_KEY or Bearer <token>.'}\n  required")),
    ),
)


def check(ctx: ToolContext) -> Iterable[Hit]:
    tool = ctx.tool
    found = reports(tool)  # most tools: nothing
    return _embedded_secret(found, tool) if found else ()


def _embedded_secret(found: list, tool: ToolView) -> Iterator[Hit]:
    for item in found:
        found = item.report.secrets
        if found:
            surface = item.surface
            first = found[0]
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            yield hit(surface, f"{first.kind} {at(surface, first.start)}: {first.redacted}{more}; remove it "
                      "and rotate it")
