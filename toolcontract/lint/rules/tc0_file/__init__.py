"""TC0xx: the file itself — it must parse, keep its keys unique and match the format."""
