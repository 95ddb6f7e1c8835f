"""The chain nodes: root nodes that prompt a chat model once per item and read its answer.

* :mod:`.chain_llm`: the Basic LLM Chain (``chainLlm``), with the output parser sub-nodes;
* :mod:`.information_extractor`: the Information Extractor (``informationExtractor``);
* :mod:`.text_classifier`: the Text Classifier (``textClassifier``), one output per category;
* :mod:`.sentiment_analysis`: Sentiment Analysis (``sentimentAnalysis``), one output per sentiment.

The last three parse the answer with LangChain's own structured parser, built inside the node
(:mod:`._schema_parser`); all run their items in batches as n8n does (:mod:`._batches`).
"""
