"""Allow `python -m puzint`."""

from .cli import main

raise SystemExit(main())
