"""qrs: printable quick-reference sheets for tabletop wargames."""

__version__ = "0.1.0"
