"""The file nodes: Read/Write Files from Disk, Read/Write Binary File(s), Move Binary Data, Convert to File, Extract
from File, Spreadsheet File and Compression; file access rules and archive limits are the kit's
(:mod:`weft.nodes.files`)."""
