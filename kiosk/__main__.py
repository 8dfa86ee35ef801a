"""`python -m kiosk` is the same as the `kiosk` console script."""

from kiosk.cli import main

raise SystemExit(main())
