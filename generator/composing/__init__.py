"""Composing what is printed from what was read and modelled: translations, earlier editions and their errata,
handouts (from a sheet, or from a roster alone), and drafts of imported documents."""
