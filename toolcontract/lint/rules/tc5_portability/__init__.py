"""TC5xx: portability — what each provider surface refuses, or reads differently, in a tool — and the
size of a tool list (TC516, TC517).

The surface rules run only for the surfaces `--target` names (openai, openai-strict, anthropic,
anthropic-strict, gemini, mcp), with the targeted ones in `ctx.surfaces`; every message names the
surfaces it speaks for. A surface's hard refusal (a 400 at request time) is an error; a SHOULD, or a
keyword outside a subset the surface documents only loosely, is a warning. The facts and their sources
are in the provider reference (tool-surfaces.md); source keys in comments (OA-SO, AN-SO, GM-SDK, MT, ...)
refer to it. The limits themselves are in toolcontract.core.limits, which convert reads too.

Schemas are walked with lint.schema_walk: `$ref`s are not followed, so a limit that a reference would
push over is not seen, and nothing is ever fetched.
"""
