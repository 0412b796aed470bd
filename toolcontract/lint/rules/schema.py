"""TC4xx: input and output schemas — valid JSON Schema 2020-12 a model can fill in."""
