"""The `qrs` command and its sub-commands; they parse arguments and report, the work is done elsewhere."""
