"""``python -m weft.testing.saas``: serve the fake SaaS APIs on their recorded port."""

from weft.testing.saas import main

main()
