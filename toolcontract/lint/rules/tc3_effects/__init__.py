"""TC3xx: effects, approvals, observation and targets."""
