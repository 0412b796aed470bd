"""TC1xx: tool names and versions."""
