"""The descriptors several TC4xx rules write their examples from."""

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


ADDRESS = """\
toolcontract: 1
name: parcel_quote
effect: read
input_schema:
  type: object
  properties:
    to: {$ref: "#/$defs/address"}
  required: [to]
  additionalProperties: false
  $defs:
    address:
      type: object
      description: Delivery address.
      properties:
        postcode: {type: string, description: Postal code.}
      additionalProperties: false
"""


DEFAULTS = """\
toolcontract: 1
name: report_export
effect: read
input_schema:
  type: object
  properties:
    report_id: {type: string, description: Report to export.}
    format: {type: string, enum: [csv, pdf], default: csv, description: File format.}
  required: [report_id]
  additionalProperties: false
"""
