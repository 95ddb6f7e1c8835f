"""GitHub (``n8n-nodes-base.github`` 1, 1.1 and its ``githubTool``): issues, files, repositories, releases,
reviews, users, organizations, Actions workflows and (1.1 in n8n 2.41) pull requests, over GitHub's REST API."""
