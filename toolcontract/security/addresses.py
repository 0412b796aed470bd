"""Addresses that point a fetch into the host or its network (TC610), parsed, not matched.

A URL's host is read as a resolver reads it, so that no notation dodges the check: dotted
decimal, one integer (`http://2852039166/`), hex (`0xA9FEA9FE`, `0xa9.0xfe.0xa9.0xfe`),
octal (`0251.0376.0251.0376`), short forms (`169.254.43518`: the last part fills the
remaining bytes, as inet_aton does), IPv6 (`[fe80::1]`) and IPv4 mapped into IPv6
(`[::ffff:169.254.169.254]`, `[::ffff:a9fe:a9fe]`). Outside a URL (`scheme://`), only a
dotted quad, a bracketed IPv6 address or a metadata host name is read: `1.2.3` alone is a
version, not an address.

What is reported (`Address.level`):

- ERROR: a cloud instance metadata endpoint (169.254.169.254, 169.254.170.2,
  100.100.100.200, fd00:ec2::254, metadata.google.internal, instance-data...), any other
  link-local address (169.254.0.0/16, fe80::/10), and a `file:` URL;
- WARNING: a loopback or private address (127.0.0.0/8, ::1, localhost, 0.0.0.0, 10.0.0.0/8,
  172.16.0.0/12, 192.168.0.0/16, fc00::/7) that names an admin, secret-store or
  container-control endpoint: a port in SENSITIVE_PORTS, a path segment in SENSITIVE_SEGMENTS,
  or a Docker socket anywhere in the URL;
- nothing for a loopback or private address of an ordinary local service
  (`http://localhost:11434`, `postgres://localhost:5432/db`).

Pure: text in, spans out.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import unquote, urlsplit

from toolcontract.security.lazy import led_finditer, lower_safe
from toolcontract.security.records import Record

ERROR, WARNING = "error", "warning"

METADATA_IPS = frozenset((
    ipaddress.ip_address("169.254.169.254"),  # AWS, Azure, GCP, OpenStack, Oracle, DigitalOcean
    ipaddress.ip_address("169.254.170.2"),  # AWS ECS task metadata and credentials
    ipaddress.ip_address("100.100.100.200"),  # Alibaba Cloud
    ipaddress.ip_address("fd00:ec2::254"),  # AWS over IPv6
))
METADATA_HOSTS = frozenset((
    "metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal",
))
# ports of admin, secret-store and container-control services
SENSITIVE_PORTS = {
    2375: "the Docker API", 2376: "the Docker API", 2379: "etcd", 2380: "etcd", 6443: "the Kubernetes API",
    8200: "Vault", 8500: "Consul", 10250: "the kubelet", 10255: "the kubelet",
}
# path segments (lower-cased) of admin, debug, secret-store and container-control endpoints
SENSITIVE_SEGMENTS = {
    "admin": "an admin endpoint", "administrator": "an admin endpoint", "wp-admin": "an admin endpoint",
    "actuator": "a Spring actuator", "jolokia": "a JMX bridge", "debug": "a debug endpoint",
    "server-status": "a server status page", "vault": "a secret store", "secret": "a secret store",
    "secrets": "a secret store", "containers": "a container API", "exec": "a container API",
    "pods": "the kubelet",
}
_SOCKETS = ("docker.sock", "containerd.sock", "podman.sock")

_LINK_LOCAL_4 = ipaddress.ip_network("169.254.0.0/16")
_LINK_LOCAL_6 = ipaddress.ip_network("fe80::/10")
_UNSPECIFIED_4 = ipaddress.ip_address("0.0.0.0")

# a cheap test first: text without one of these holds no address this module reports
_DOT_DIGIT = re.compile(r"\.[0-9]")  # a dotted part ends in a digit or a hex letter (_digit_dot)
_HEX = frozenset("0123456789abcdefABCDEF")
_BRACKET_COLON = re.compile(r"\[[0-9a-fA-F]*:")


def _gate(text: str) -> bool:
    """Whether one of the patterns below may match (each needs one of these)."""
    return bool(_patterns(text))


def _patterns(text: str) -> tuple:
    """The patterns worth running on `text` (most texts: none)."""
    low = text.lower()
    out = []
    if "://" in low or "file:" in low:
        out.append(_URL)
    if "." in text and _digit_dot(text):
        out.append(_DOTTED)
    if "[" in text and _BRACKET_COLON.search(text) is not None:
        out.append(_BRACKETED)
    if "metadata" in low or "instance-data" in low:
        out.append(_HOST_WORD)
    return tuple(out)


def _digit_dot(text: str) -> bool:
    """Whether a digit or a hex letter, a dot and a digit follow each other in the text (what
    `[0-9a-fA-F]\\.[0-9]` finds): a search for the dot and the digit, which the engine skips to at
    once, then a look at the character before."""
    search = _DOT_DIGIT.search
    found = search(text)
    while found is not None:
        start = found.start()
        if start and text[start - 1] in _HEX:
            return True
        found = search(text, start + 1)
    return False


_URL = re.compile(r"\b(?:[a-z][a-z0-9+.-]{0,15}://|file:/?)[^\s\"'<>`|]+", re.I)
_DOTTED = re.compile(r"(?<![\w.])(?:(?:0x[0-9a-f]+|\d+)\.){3}(?:0x[0-9a-f]+|\d+)(?::\d{1,5})?(?![\w.])", re.I)
_BRACKETED = re.compile(r"\[[0-9a-f:.]*:[0-9a-f:.]*\](?::\d{1,5})?", re.I)
_HOST_WORD = re.compile(r"(?<![\w.-])(?:metadata\.google\.internal|metadata\.goog|instance-data(?:\.ec2\.internal)?)"
                        r"(?![\w-])", re.I)
_HOST_LEAD = re.compile("metadata|instance-data")  # what _HOST_WORD's matches begin with, lower-cased
_TRAILING = ".,;:!?)]}'\""
_MAX_URLS = 32  # per string: the rest of a string made of URLs is not read


class Address(Record):
    __slots__ = ("start", "end", "level", "what")

    def __init__(self, start: int, end: int, level: str, what: str):
        self.start, self.end, self.level, self.what = start, end, level, what


def internal_addresses(text: str) -> list[Address] | tuple:
    """The spans of `text` that point a fetch into the host or its network, in order (an empty
    tuple, shared, for most texts: a run reads tens of thousands, and new empty lists would
    make the garbage collector walk the whole parsed corpus more often)."""
    patterns = _patterns(text)
    if not patterns:
        return ()
    found: list[Address] = []
    taken: list[tuple[int, int]] = []
    for count, match in enumerate(_URL.finditer(text) if _URL in patterns else ()):
        if count >= _MAX_URLS:
            break
        url = match.group()
        while url and url[-1] in _TRAILING and not (url[-1] == "]" and "[" in url):
            url = url[:-1]
        start = match.start()
        taken.append((start, match.end()))
        verdict = _url(url)
        if verdict is not None:
            found.append(Address(start, start + len(url), *verdict))
    for pattern in patterns:
        if pattern is _URL:
            continue
        if pattern is _HOST_WORD and lower_safe(text):  # led by a lookbehind: tried where a host word is
            matches = led_finditer(pattern, text, _HOST_LEAD, text.lower())
        else:
            matches = pattern.finditer(text)
        for match in matches:
            start, end = match.span()
            if any(a <= start < b for a, b in taken):
                continue  # inside a URL, read above
            taken.append((start, end))
            verdict = _bare(match.group())
            if verdict is not None:
                found.append(Address(start, end, *verdict))
    if not found:
        return ()
    found.sort(key=lambda a: a.start)
    return found


def _url(url: str) -> tuple[str, str] | None:
    low = url.lower()
    if low.startswith("file:"):
        rest = url[5:].lstrip("/")
        if not rest or rest.startswith(("path/to", "...")) or not any(c.isalnum() for c in rest):
            return None  # `file://` named, no file: a mention of the scheme
        return ERROR, "a `file:` URL, which reads the host's own files"
    if any(socket in low for socket in _SOCKETS):
        return WARNING, "a container runtime's control socket"
    try:
        parts = urlsplit(url)
        host = parts.hostname
        port = parts.port
    except ValueError:
        return None
    if not host:
        return None
    verdict = _host(unquote(host))
    if verdict is None:
        return None
    level, what = verdict
    if level == ERROR:
        return verdict
    reason = _sensitive(port, parts.path)
    return (WARNING, f"{what} that names {reason}") if reason else None


def _bare(text: str) -> tuple[str, str] | None:
    """A dotted quad, a bracketed IPv6 address or a host name, maybe with a port, outside a URL."""
    host, port = text, None
    if text.startswith("["):
        close = text.index("]")
        host, rest = text[1:close], text[close + 1:]
        port = int(rest[1:]) if rest.startswith(":") and rest[1:].isdigit() else None
    elif ":" in text:
        host, _, digits = text.rpartition(":")
        port = int(digits) if digits.isdigit() else None
    verdict = _host(host)
    if verdict is None or verdict[0] == ERROR:
        return verdict
    reason = _sensitive(port, "")
    return (WARNING, f"{verdict[1]} that names {reason}") if reason else None


def _sensitive(port: int | None, path: str) -> str | None:
    if port in SENSITIVE_PORTS:
        return f"{SENSITIVE_PORTS[port]} (port {port})"
    for segment in unquote(path).lower().split("/"):
        if segment in SENSITIVE_SEGMENTS:
            return f"{SENSITIVE_SEGMENTS[segment]} (/{segment})"
    return None


def _host(host: str) -> tuple[str, str] | None:
    """ERROR for a metadata or link-local host, WARNING (to be confirmed by the endpoint) for a
    loopback or private one, None for any other."""
    host = host.lower().rstrip(".")
    if host in METADATA_HOSTS:
        return ERROR, f"a cloud metadata endpoint ({host}), where instance credentials live"
    if host == "localhost" or host.endswith(".localhost"):
        return WARNING, f"a loopback address ({host})"
    address = parse_ip(host)
    if address is None:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    shown = f"{address}" if str(address) == host else f"{address}, written {host!r}"
    if address in METADATA_IPS:
        return ERROR, f"a cloud metadata endpoint ({shown}), where instance credentials live"
    if address in _LINK_LOCAL_4 or (address.version == 6 and address in _LINK_LOCAL_6):
        return ERROR, f"a link-local address ({shown})"
    if address.is_loopback or address == _UNSPECIFIED_4:
        return WARNING, f"a loopback address ({shown})"
    if address.is_private and not address.is_reserved:
        return WARNING, f"a private address ({shown})"
    return None


_PART = re.compile(r"0x[0-9a-f]*|0[0-7]*|[1-9][0-9]*", re.I)


def parse_ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An IP address in any notation a resolver accepts (see the module), or None for a name."""
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if ":" in host:
        try:
            return ipaddress.IPv6Address(host.split("%", 1)[0])
        except ValueError:
            return None
    parts = host.split(".")
    if not 1 <= len(parts) <= 4 or not all(_PART.fullmatch(p) for p in parts):
        return None
    values = []
    for part in parts:
        low = part.lower()
        if low.startswith("0x"):
            values.append(int(low[2:] or "0", 16))
        elif len(part) > 1 and part.startswith("0"):
            values.append(int(part, 8))
        else:
            values.append(int(part))
    *head, last = values
    if any(v > 255 for v in head) or last >= 256 ** (4 - len(head)):
        return None
    number = last
    for i, value in enumerate(head):
        number += value << (8 * (3 - i))
    return ipaddress.IPv4Address(number)


def internal_host(host: str) -> str | None:
    """What a URL's host is when it points into the client's own network (a metadata, link-local,
    loopback or private address, said as `_host` says it), or None for a public host."""
    found = _host(host)
    return None if found is None else found[1]
