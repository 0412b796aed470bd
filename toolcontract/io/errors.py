"""What a job raises for input it cannot take: one line, `path:line:col: ...` when about a file."""

from __future__ import annotations


class InputError(ValueError):
    """The job cannot be done as asked (a missing path, a bad configuration, an unreadable fixture, an unknown
    rule code); the message is one line, `path:line:col: ...` when about a file. The CLI exits 2 with it."""
