"""TC2xx: what the model is told about a tool."""
