"""XML as n8n's nodes read and write it: xml2js's parser and builder (:mod:`.xml2js`, :mod:`.build`) on sax-js's
strict rules (:mod:`.sax`). Kit, not library: the XML and RSS Read nodes use it, and so do the ports of
declarative nodes whose services answer XML (Azure Storage)."""
