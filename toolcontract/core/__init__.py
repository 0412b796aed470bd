"""The pure core: values and helpers every layer may use; no I/O (see DESIGN.md §5)."""
