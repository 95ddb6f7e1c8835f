"""The GraphQL node, sent through the HTTP Request node's code."""
