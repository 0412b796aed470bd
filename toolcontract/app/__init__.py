"""The jobs, one plain function each: a request in, a result out (no terminal, no exit codes).

`lint_paths` (toolcontract.app.lint) and `assess_paths` (toolcontract.app.assess); both raise
`InputError` (toolcontract.io.errors) for input they cannot take.
"""
