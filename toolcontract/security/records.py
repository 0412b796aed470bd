"""The security rules' small immutable values are `toolcontract.core.records.Record`s (no
@dataclass cost at import); this name stays for the modules that import it from here."""

from toolcontract.core.records import Record

__all__ = ["Record"]
