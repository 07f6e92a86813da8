"""From a validated sheet to laid-out pages: HTML, measuring, packing, typography, fonts."""
