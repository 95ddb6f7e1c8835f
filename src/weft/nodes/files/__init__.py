"""Files for nodes and the host: the file-access rules (``WEFT_RESTRICT_FILE_ACCESS_TO``), decompression limits and
archives, the settings they come from, reading a workflow file and PDF text."""
