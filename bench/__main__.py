"""``python -m bench``: the whole benchmark suite (see bench/suite.py); ``python -m bench bots``:
the bots' strength and decision time (see bench/bots.py); ``python -m bench correspondence``:
days to finish a correspondence game with and without standing orders (bench/correspondence.py)."""

import sys

if len(sys.argv) > 1 and sys.argv[1] == "bots":
    from bench.bots import main as bots_main

    sys.exit(bots_main(sys.argv[2:]))
if len(sys.argv) > 1 and sys.argv[1] == "correspondence":
    from bench.correspondence import main as correspondence_main

    sys.exit(correspondence_main(sys.argv[2:]))

from bench.suite import main  # noqa: E402

sys.exit(main())
