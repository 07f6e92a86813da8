"""Reading what an author wrote: YAML sources, translation catalogues, earlier editions from git."""
