"""TC906 security-scheme-invalid: a security scheme of an Agent Card without what its kind needs."""

from __future__ import annotations

from typing import Iterator

from toolcontract.core.model import Severity
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.context import ToolContext
from toolcontract.lint.rules.tc9_card.card import card_of, example

RULE = Rule(
    id="TC906",
    name="security-scheme-invalid",
    severity=Severity.ERROR,
    summary="A security scheme of an Agent Card lacks what its kind needs (an OAuth flow without its URLs, "
            "an API key without `location` and `name`).",
    rationale=(
        "A client authenticates from the scheme alone: an API key needs where it goes and under which name, "
        "an OAuth flow the URLs to get a token and its scopes, OpenID Connect its discovery URL. A scheme "
        "without them cannot be used, and an agent that requires it cannot be called."
    ),
    examples=(
        Bad(example(("skills:\n", "securitySchemes:\n  key:\n    apiKeySecurityScheme: {name: X-API-Key}\nskills:\n")),
            line=13, column=5, message="API key scheme 'key' without `location`"),
        Bad(example(("skills:\n", "securitySchemes:\n  oauth:\n    oauth2SecurityScheme:\n      flows:\n"
                     "        clientCredentials: {scopes: {read: Read recipes}}\nskills:\n")),
            line=15, column=9, message="OAuth flow `clientCredentials` of scheme 'oauth' without `tokenUrl`"),
        Good(example(("skills:\n", "securitySchemes:\n  oauth:\n    oauth2SecurityScheme:\n      flows:\n"
                      "        clientCredentials: {tokenUrl: https://auth.example.com/token, scopes: {}}\nskills:\n"))),
    ),
)

# v1.0 (proto): member -> (what it is called, required fields); v0.3: `type` -> the same
V1_KINDS = {
    "apiKeySecurityScheme": ("API key", ("location", "name")),
    "httpAuthSecurityScheme": ("HTTP auth", ("scheme",)),
    "oauth2SecurityScheme": ("OAuth 2.0", ("flows",)),
    "openIdConnectSecurityScheme": ("OpenID Connect", ("openIdConnectUrl",)),
    "mtlsSecurityScheme": ("mutual TLS", ()),
}
V03_KINDS = {
    "apiKey": ("API key", ("in", "name")),
    "http": ("HTTP auth", ("scheme",)),
    "oauth2": ("OAuth 2.0", ("flows",)),
    "openIdConnect": ("OpenID Connect", ("openIdConnectUrl",)),
    "mutualTLS": ("mutual TLS", ()),
}
# each flow's required URLs (v1.0 proto; v0.3 schema) and `scopes`
FLOWS = {
    "authorizationCode": ("authorizationUrl", "tokenUrl", "scopes"),
    "clientCredentials": ("tokenUrl", "scopes"),
    "deviceCode": ("deviceAuthorizationUrl", "tokenUrl", "scopes"),
    "implicit": ("authorizationUrl", "scopes"),
    "password": ("tokenUrl", "scopes"),
}


def _scheme(name: str, scheme: dict) -> Iterator[Hit]:
    path: tuple = ("securitySchemes", name)
    kinds = [key for key in scheme if key in V1_KINDS]
    if kinds:
        label, required = V1_KINDS[kinds[0]]
        body, path = scheme[kinds[0]], (*path, kinds[0])
    elif isinstance(scheme.get("type"), str) and scheme["type"] in V03_KINDS:
        label, required = V03_KINDS[scheme["type"]]
        body = scheme
    else:
        yield Hit(path, f"security scheme {name!r} names no kind: write one of {', '.join(V1_KINDS)}")
        return
    if not isinstance(body, dict):
        yield Hit(path, f"{label} scheme {name!r} must be a mapping")
        return
    for key in required:
        if not (isinstance(body.get(key), (str, dict)) and body[key]):
            yield Hit(path, f"{label} scheme {name!r} without `{key}`: a client cannot use it")
    flows = body.get("flows")
    if isinstance(flows, dict):
        known = [key for key in flows if key in FLOWS]
        if not known:
            yield Hit((*path, "flows"), f"OAuth scheme {name!r} has no flow ({', '.join(FLOWS)})")
        for flow in known:
            value = flows[flow]
            if not isinstance(value, dict):
                yield Hit((*path, "flows", flow), f"OAuth flow `{flow}` of scheme {name!r} must be a mapping")
                continue
            for key in FLOWS[flow]:
                if key not in value or (key != "scopes" and not (isinstance(value[key], str) and value[key].strip())):
                    yield Hit((*path, "flows", flow), f"OAuth flow `{flow}` of scheme {name!r} without `{key}`: "
                              "a client cannot get a token")


def check(ctx: ToolContext) -> Iterator[Hit]:
    card = card_of(ctx.tool)
    if card is None:
        return
    schemes = card.get("securitySchemes")
    if not isinstance(schemes, dict):
        return
    for name, scheme in schemes.items():
        if isinstance(scheme, dict):
            yield from _scheme(str(name), scheme)
