"""The Google Sheets node (:mod:`weft.library.google.sheets.node`)."""
