"""TC5xx: what each provider surface accepts (with `--target`), and the size of a tool list."""
