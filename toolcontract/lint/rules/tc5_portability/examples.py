"""The descriptor most TC5xx examples start from (`WEATHER`), and one more property for it."""

from __future__ import annotations

WEATHER = """\
toolcontract: 1
name: weather_current
effect: read
input_schema:
  type: object
  properties:
    city: {type: string, description: City name such as Lisbon.}
  required: [city]
  additionalProperties: false
"""


def with_property(line: str, required: str = "[city]") -> str:
    """WEATHER with one more property line (line 8) and its `required`."""
    return WEATHER.replace("  required: [city]\n", f"    {line}\n  required: {required}\n")
