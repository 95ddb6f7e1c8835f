"""n8n's forms, which the host serves and the form nodes fill: the Form Trigger's options, the fields and their
submissions, and the pages (HTML) the server renders."""
