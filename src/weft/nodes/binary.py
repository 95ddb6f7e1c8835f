"""The binary-data helpers a node context offers (n8n's ``helpers.prepareBinaryData``, ``assertBinaryData``,
``getBinaryDataBuffer``, ``getBinaryStream``, ``binaryToString``), over the execution's :class:`BinaryDataService`.

A node never touches base64 or files itself: it asks for the bytes (or a stream of them) of an input item's
binary property, and gives bytes (or a stream) to :meth:`BinaryHelpers.prepare_binary_data` to get the entry it
puts in its output item. Where the bytes live is the mode's business.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

from weft.binary import CHUNK_SIZE, BinaryDataService, Data, Location, describe
from weft.binary.meta import sanitize_file_name
from weft.errors import NodeOperationError
from weft.workflow import Item

_BINARY_KEYS = frozenset({"data", "mimeType"})


def is_binary_value(value: Any) -> bool:
    """n8n's ``isBinaryValue``: an object with ``data`` and ``mimeType`` (a binary entry passed by value)."""
    return isinstance(value, Mapping) and _BINARY_KEYS <= value.keys()


class BinaryHelpers:
    """Mixed into the node contexts. Needs ``node``, ``get_input_data``, ``binary_data`` and ``binary_location``."""

    node: Any
    binary_data: BinaryDataService
    binary_location: Location

    def get_input_data(self, input_index: int = 0, connection_type: str = "main") -> list[Item]:
        raise NotImplementedError

    async def prepare_binary_data(
        self, data: Data, file_path: str | None = None, mime_type: str | None = None
    ) -> dict[str, Any]:
        """A binary entry for ``data`` (bytes or chunks): its metadata from the path and MIME type (or the bytes'
        signature), its bytes stored in the execution's mode."""
        head = bytes(data[:64]) if isinstance(data, bytes | bytearray | memoryview) else None
        metadata = describe(file_path, mime_type, head)
        return await self.binary_data.store(self.binary_location, data, metadata)

    async def binary_entry(self, data: Data, metadata: Mapping[str, Any]) -> dict[str, Any]:
        """A binary entry with exactly ``metadata`` (a node that sets its own names and types)."""
        return await self.binary_data.store(self.binary_location, data, metadata)

    def assert_binary_data(self, item_index: int, property_name: Any, input_index: int = 0) -> dict[str, Any]:
        """The binary entry ``property_name`` of input item ``item_index``, with n8n's errors when it is missing."""
        if is_binary_value(property_name):
            return dict(property_name)
        name = self.node.name
        if not isinstance(property_name, str):
            raise NodeOperationError(
                name,
                "Provided parameter is not a string or binary data object.",
                item_index=item_index,
                description="Specify the property name of the binary data in input item or use an expression to "
                'access the binary data in previous nodes, e.g. "{{ $(_target_node_).item.binary'
                '[_binary_property_name_] }}"',
            )
        items = self.get_input_data(input_index)
        binary = items[item_index].get("binary") if item_index < len(items) else None
        if binary is None:
            raise NodeOperationError(
                name,
                f"This operation expects the node's input data to contain a binary file '{property_name}', but none "
                f"was found [item {item_index}]",
                item_index=item_index,
                description="Make sure that the previous node outputs a binary file",
            )
        entry = binary.get(property_name)
        if entry is None:
            raise NodeOperationError(
                name,
                f"The item has no binary field '{property_name}' [item {item_index}]",
                item_index=item_index,
                description="Check that the parameter where you specified the input binary field name is correct, "
                "and that it matches a field in the binary input",
            )
        return dict(entry)

    async def get_binary_data_buffer(self, item_index: int, property_name: Any, input_index: int = 0) -> bytes:
        """All bytes of an input item's binary property (n8n's ``getBinaryDataBuffer``)."""
        return await self.binary_data.get_bytes(self.assert_binary_data(item_index, property_name, input_index))

    def get_binary_stream(self, binary: Mapping[str, Any], chunk_size: int = CHUNK_SIZE) -> AsyncIterator[bytes]:
        """The bytes of a binary entry, chunk by chunk (n8n's ``getBinaryStream``): for large files."""
        return self.binary_data.stream(binary, chunk_size)

    async def binary_bytes(self, binary: Mapping[str, Any]) -> bytes:
        """All bytes of a binary entry."""
        return await self.binary_data.get_bytes(binary)


__all__ = ["BinaryHelpers", "is_binary_value", "sanitize_file_name"]
