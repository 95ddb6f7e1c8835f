"""n8n's core nodes: flow (If, Switch, Merge, Wait, Execute Workflow, triggers), data (Set, Filter, Sort, Aggregate,
Item Lists, …), code (Code, Function), and text formats (Date & Time, Crypto, Markdown, HTML, XML)."""
