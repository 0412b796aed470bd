"""`toolcontract server`: a Language Server Protocol server over stdio (docs/editor.md).

`toolcontract.server.workspace` is what the server knows and computes: the workspace folders, their
configuration, the files lint reads in them (on disk, or as the editor holds them), the findings as
diagnostics, quick fixes, suppressions and hover texts; it speaks no protocol and imports no LSP
library. `toolcontract.server.lsp` is the shell: pygls, the messages, the debounce.
"""
