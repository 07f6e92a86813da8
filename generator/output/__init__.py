"""Writing outputs: the one writer, the manifest of incremental builds, worker processes, page images."""
