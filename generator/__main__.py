"""`python -m generator`: the qrs command. Run by a Python that lacks qrs's libraries (the system's, not the
environment's), it says which to use instead of a traceback (exit 69, as a missing program)."""

import sys

try:
    from generator.cli.main import main
except ModuleNotFoundError as error:
    if (error.name or "").partition(".")[0] == "generator":
        raise
    from generator.errors import environment_missing

    print(environment_missing(error.name), file=sys.stderr)
    sys.exit(69)

main()
