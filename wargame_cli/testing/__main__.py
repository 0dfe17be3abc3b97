"""`python -m wargame_cli.testing RULESET_ID`: the conformance kit on one installed ruleset."""

from __future__ import annotations

import sys

from wargame_cli.testing import main

if __name__ == "__main__":
    sys.exit(main())
