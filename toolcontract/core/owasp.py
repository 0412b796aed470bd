"""The OWASP MCP Top 10 (2025), the taxonomy the security rules (TC6xx) name their category in.

Each TC6xx rule's `Rule.owasp` holds the ids of the categories its findings belong to, the first the
main one; `toolcontract rules`, SARIF (`properties.tags` and the run's `taxonomies`) and docs/rules.md
show them. Names as the OWASP project (owasp.org/www-project-mcp-top-10) gives them; MCP06 is named
for what it is about here, a tool's text that subverts the model's intent (the project: prompt
injection via contextual payloads).
"""

from __future__ import annotations

NAME = "OWASP MCP Top 10"
VERSION = "2025"
URI = "https://owasp.org/www-project-mcp-top-10/"

CATEGORIES: dict[str, str] = {
    "MCP01": "Token Mismanagement and Secret Exposure",
    "MCP02": "Privilege Escalation via Scope Creep",
    "MCP03": "Tool Poisoning",
    "MCP04": "Software Supply Chain Attacks and Dependency Tampering",
    "MCP05": "Command Injection and Execution",
    "MCP06": "Intent Flow Subversion (Prompt Injection via Contextual Payloads)",
    "MCP07": "Insufficient Authentication and Authorization",
    "MCP08": "Lack of Audit and Telemetry",
    "MCP09": "Shadow MCP Servers",
    "MCP10": "Context Injection and Over-Sharing",
}


def label(category: str) -> str:
    """`MCP03 Tool Poisoning`."""
    return f"{category} {CATEGORIES[category]}"
