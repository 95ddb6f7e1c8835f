"""Output parsers: the sub-nodes that shape an agent's final answer (``ai_outputParser``)."""
