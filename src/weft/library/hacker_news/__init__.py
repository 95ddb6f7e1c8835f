"""Hacker News (``n8n-nodes-base.hackerNews`` 1 and its ``hackerNewsTool``): articles, users and searches over
the Algolia Hacker News API (``http://hn.algolia.com/api/v1``), no credential."""
