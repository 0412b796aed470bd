"""Opening input files safely: regular files only, read within limits.

A FIFO, a device or a socket named as input (or met in a folder) must be refused at once: opening a
FIFO for reading blocks until a writer comes, and `/dev/zero` never ends. Files are opened with
O_NONBLOCK (so a FIFO does not wait for a writer) and checked with fstat on the open descriptor (no
race between a check and the open). Lines of a JSONL stream are read with a bound, so one line of
gigabytes is refused at the limit instead of being held in memory first.
"""

from __future__ import annotations

import os
import stat
from typing import BinaryIO, Iterator


class NotRegular(OSError):
    """The path names something other than a regular file (a folder, FIFO, device, socket)."""

    def __init__(self, path: str, what: str):
        super().__init__(f"not a regular file ({what})")
        self.filename = path
        self.strerror = f"not a regular file ({what})"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def open_regular(path: str) -> BinaryIO:
    """A binary file object for the regular file `path`. Raises OSError (NotRegular for a FIFO,
    device, socket or folder) without blocking."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegular(path, _kind(mode))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


class LineTooLong(ValueError):
    def __init__(self, number: int, limit: int):
        super().__init__(f"line is over the {limit:,}-byte limit")
        self.number = number
        self.limit = limit


def bounded_lines(stream: BinaryIO, max_bytes: int) -> Iterator[bytes]:
    """The lines of a binary stream, each read with at most `max_bytes` + 1 bytes in memory; a longer
    line raises LineTooLong (its number) as soon as the limit is passed."""
    number = 0
    while True:
        line = stream.readline(max_bytes + 1)
        if not line:
            return
        number += 1
        if len(line) > max_bytes:
            raise LineTooLong(number, max_bytes)
        yield line
