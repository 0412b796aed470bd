"""The descriptor the TC6xx rules' examples vary: one read tool, `weather_current`."""


WEATHER = """\
toolcontract: 1
name: weather_current
effect: read
description: Current weather for one city.
input_schema:
  type: object
  properties:
    city: {type: string, description: City name such as Lisbon.}
  required: [city]
  additionalProperties: false
"""


def with_description(text: str) -> str:
    return WEATHER.replace("description: Current weather for one city.", f"description: {text}")
