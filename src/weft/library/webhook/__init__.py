"""The Webhook trigger and Respond to Webhook; how the host receives and answers is in :mod:`weft.nodes.webhooks`."""
