"""Rule families; importing this package registers every rule with the engine."""

from toolcontract.lint.rules import documentation, effects, file, naming, schema  # noqa: F401
