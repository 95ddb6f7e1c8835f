"""Binary data as n8n has it: the metadata of a file (:mod:`.meta`) and where its bytes live (:mod:`.store`, with
the filesystem mode in :mod:`.filesystem`; the database mode is ``weft.db.binary_data``)."""

from weft.binary.meta import describe, pretty_bytes
from weft.binary.store import CHUNK_SIZE, BinaryDataError, BinaryDataService, Data, Location

__all__ = ["CHUNK_SIZE", "BinaryDataError", "BinaryDataService", "Data", "Location", "describe", "pretty_bytes"]
