"""``weft.settings`` (kept with the db tests: the database URL and the key are its main fields)."""

import dataclasses
from pathlib import Path

import pytest

from weft.errors import ConfigurationError
from weft.settings import Settings, instance_base_url


def test_defaults(tmp_path: Path) -> None:
    settings = Settings.from_env({"WEFT_USER_FOLDER": str(tmp_path)})
    assert settings.user_folder == tmp_path
    assert settings.database_url == f"sqlite:///{tmp_path / 'database.sqlite'}"
    assert (settings.host, settings.port, settings.public_url) == ("127.0.0.1", 5678, "")
    assert settings.base_url == "http://127.0.0.1:5678/"
    assert (settings.executions_data_max_age, settings.executions_data_prune_max_count) == (336, 10000)
    assert settings.encryption_key is None and settings.execution_timeout is None
    assert settings.block_env_access_in_node is True and settings.save_manual_executions is True


def test_default_user_folder_is_in_home() -> None:
    assert Settings.from_env({}).user_folder == Path("~/.weft").expanduser()


def test_values_from_the_environment() -> None:
    settings = Settings.from_env(
        {
            "WEFT_DATABASE_URL": "postgresql://u:p@db/weft",
            "WEFT_ENCRYPTION_KEY": "secret",
            "WEFT_PORT": "8080",
            "WEFT_PUBLIC_URL": "https://weft.example.com",
            "WEFT_EXECUTION_TIMEOUT": "30",
            "WEFT_BLOCK_ENV_ACCESS_IN_NODE": "false",
            "WEFT_EXECUTIONS_DATA_SAVE_ON_SUCCESS": "none",
        }
    )
    assert settings.database_url == "postgresql://u:p@db/weft"
    assert settings.encryption_key == "secret" and settings.port == 8080
    assert settings.public_url == settings.base_url == "https://weft.example.com/"
    assert settings.execution_timeout == 30 and settings.block_env_access_in_node is False
    assert settings.save_data_on_success == "none"
    assert Settings.from_env({"WEFT_EXECUTION_TIMEOUT": "-1"}).execution_timeout is None


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("WEFT_PORT", "http"),
        ("WEFT_BLOCK_ENV_ACCESS_IN_NODE", "maybe"),
        ("WEFT_EXECUTION_TIMEOUT", "soon"),
        ("WEFT_EXECUTIONS_DATA_SAVE_ON_ERROR", "some"),
    ],
)
def test_bad_values_name_the_variable(name: str, value: str) -> None:
    with pytest.raises(ConfigurationError, match=name):
        Settings.from_env({name: value})


@pytest.mark.parametrize(
    ("environ", "base_url"),
    [
        ({"WEFT_PORT": "8080"}, "http://127.0.0.1:8080/"),
        ({"WEFT_HOST": "192.168.1.20", "WEFT_PORT": "8080"}, "http://192.168.1.20:8080/"),
        ({"WEFT_HOST": "0.0.0.0", "WEFT_PORT": "8080"}, "http://localhost:8080/"),  # n8n's N8N_HOST default
        ({"WEFT_HOST": "::", "WEFT_PORT": "8080"}, "http://localhost:8080/"),
        ({"WEFT_HOST": "::1", "WEFT_PORT": "8080"}, "http://[::1]:8080/"),
        ({"WEFT_HOST": "weft.lan", "WEFT_PORT": "80"}, "http://weft.lan/"),
        ({"WEFT_PORT": "8080", "WEFT_PUBLIC_URL": "https://weft.example.com/base"}, "https://weft.example.com/base/"),
    ],
)
def test_links_follow_the_host_and_port_unless_a_public_url_is_set(environ: dict[str, str], base_url: str) -> None:
    assert Settings.from_env(environ).base_url == base_url


def test_a_port_given_on_the_command_line_moves_the_links() -> None:
    """``weft start --port`` replaces the port of the settings read from the environment: links follow it."""
    settings = dataclasses.replace(Settings.from_env({}), host="0.0.0.0", port=9000)
    assert settings.base_url == "http://localhost:9000/"
    assert instance_base_url("https://weft.example.com/", "0.0.0.0", 9000) == "https://weft.example.com/"


def test_queue_mode_settings_and_its_binary_data_default() -> None:
    queue = Settings.from_env({"WEFT_EXECUTIONS_MODE": "queue", "WEFT_QUEUE_LEASE_SECONDS": "4"})
    assert (queue.executions_mode, queue.queue_lease_seconds) == ("queue", 4)
    assert queue.binary_data_mode == "database"  # workers elsewhere read what a main stored
    assert Settings.from_env({}).binary_data_mode == "filesystem"
    shared = Settings.from_env({"WEFT_EXECUTIONS_MODE": "queue", "WEFT_BINARY_DATA_MODE": "filesystem"})
    assert shared.binary_data_mode == "filesystem"  # a folder every process shares: the operator's choice
    with pytest.raises(ConfigurationError, match="WEFT_EXECUTIONS_MODE"):
        Settings.from_env({"WEFT_EXECUTIONS_MODE": "bull"})
