"""Alembic migrations of Weft's schema; :func:`weft.db.migrate.upgrade_database` runs them.

Every schema change is a new module in ``versions/`` (a package, so setuptools ships it). To write
one, change ``weft/db/orm.py`` and let Alembic draft the revision against a database at ``head``::

    from alembic import command
    from weft.db.migrate import alembic_config

    config = alembic_config()
    config.set_main_option("sqlalchemy.url", "sqlite:////tmp/weft-dev.sqlite")  # upgraded to head first
    command.revision(config, "add foo", autogenerate=True, rev_id="0002_add_foo")

Review the draft (SQLite needs batch operations, which ``env.py`` turns on), then run
``tests/db/test_engine.py``: it checks that the models and the migrations agree on both databases.
"""
