"""The HTTP Request node (every version); sending and its errors are the kit's, :mod:`weft.nodes.http`."""
