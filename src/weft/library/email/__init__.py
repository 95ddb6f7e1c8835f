"""The Send Email node; SMTP and send-and-wait are the kit's (:mod:`weft.nodes.mail`,
:mod:`weft.nodes.send_and_wait`)."""
