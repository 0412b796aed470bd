"""Rule families; importing this package registers every rule with the engine."""

from toolcontract.lint.rules import documentation, effects, file, naming, portability, schema  # noqa: F401
from toolcontract.lint.rules import change  # noqa: E402,F401  (TC7xx: diff and lock rules)
from toolcontract.assess import conversation  # noqa: E402,F401  (TC8xx: conversation rules, run by assess)
from toolcontract.lint.rules import security  # noqa: E402,F401  (TC6xx: security rules)
