"""The catalogue of specs shipped with puzint (a package only so that it installs with it)."""
