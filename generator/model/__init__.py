"""The shape of a sheet and of a handout, and the checks on it: the model, its markup, the game rules it relies on."""
