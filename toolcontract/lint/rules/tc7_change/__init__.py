"""TC7xx: changes between two versions of a contract (`diff`) and drift from the lockfile (`lock`)."""
