"""TC4xx: the input and output schemas."""
