"""Example texts shared by the TC3xx rules' examples."""

# a write tool with every guard: clean for every TC3xx rule
GOOD_WRITE = """\
toolcontract: 1
name: document_update_metadata
effect: reversible_write
approval: required
observation: Read back the field and the document version.
input_schema:
  type: object
  properties:
    document_id: {type: string, description: Document identifier.}
    expected_version: {type: string, description: Version observed before the change.}
  required: [document_id, expected_version]
  additionalProperties: false
target: {id: /document_id, version: /expected_version}
"""
