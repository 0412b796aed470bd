"""TC9xx: A2A Agent Cards (v1.0 and v0.3): structure, version, skills, URLs, security, media types."""
