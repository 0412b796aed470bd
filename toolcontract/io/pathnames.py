"""Path names as the command line writes them, without pathlib.

Importing pathlib costs ~7 ms (it pulls in fnmatch, urllib.parse, ipaddress ...): a
tenth of a one-file `lint`. These few os.path equivalents keep it off that path.
"""

from __future__ import annotations

import os


def normal_path(raw: str) -> str:
    """`raw` as `str(pathlib.Path(raw))` writes it, without importing pathlib (~7 ms of a run):
    on POSIX, empty and `.` parts and a trailing slash dropped, `..` kept, and two leading
    slashes kept as two (three or more become one). Files found in a folder are reported
    under the folder's name written this way, as they always were."""
    if os.sep != "/" or os.altsep:  # pragma: no cover - Windows paths: let pathlib parse them
        from pathlib import Path

        return str(Path(raw))
    stripped = raw.lstrip("/")
    leading = len(raw) - len(stripped)
    root = "//" if leading == 2 else "/" if leading else ""
    parts = [part for part in stripped.split("/") if part and part != "."]
    return root + "/".join(parts) or "."


__all__ = ["normal_path"]
