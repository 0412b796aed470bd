"""The TC7xx rules' examples (tests/test_rule_examples.py runs them).

An example of a change rule carries the old version in `before` (for lock rules: the file as it was
when locked); `text` is the file now.
"""

from __future__ import annotations


WEATHER_V1 = """\
toolcontract: 1
name: weather_current
version: 1.2.0
effect: read
input_schema:
  type: object
  properties:
    city: {type: string, description: City name.}
    units: {type: string, enum: [metric, imperial], description: Unit system.}
  required: [city]
"""


def weather(version: str = "1.2.0", units: str = "[metric, imperial]", extra: str = "") -> str:
    text = WEATHER_V1.replace("version: 1.2.0", f"version: {version}").replace("[metric, imperial]", units)
    return text.replace("  required: [city]\n", extra + "  required: [city]\n")


LANG = "    lang: {type: string, description: Language of the summary.}\n"


TWO_TOOLS = """\
toolcontract: 1
tools:
  - name: weather_current
    version: 1.2.0
    effect: read
  - name: weather_forecast
    version: 1.0.0
    effect: read
"""


LOCKED = """\
toolcontract: 1
name: weather_current
version: 1.2.0
description: Current weather for a city. Read-only.
effect: read
"""


LOCKED_TWO = TWO_TOOLS
