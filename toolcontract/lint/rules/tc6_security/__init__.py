"""TC6xx: text that attacks the model or the user (hidden characters, injection, secrets)."""
