"""n8n's declarative node types in the registry: each loads, runs from its description, and shows as declarative."""

from __future__ import annotations

from weft.nodes.node_properties import description_for
from weft.nodes.registry import NodeRegistry
from weft.nodes.routing import DeclarativeNode, declarative_types
from weft.nodes.routing.functions import find_port, ported_names


def _markers(value: object) -> list[dict[str, str]]:
    if isinstance(value, dict):
        if "$function" in value:
            return [value]  # type: ignore[list-item]
        return [m for v in value.values() for m in _markers(v)]
    if isinstance(value, list):
        return [m for v in value for m in _markers(v)]
    return []


def test_every_declarative_type_loads_with_a_description_of_each_version() -> None:
    registry = NodeRegistry()
    for name, listed in declarative_types().items():
        cls = registry.type_class(name)
        assert cls is not None and issubclass(cls, DeclarativeNode) and cls.declarative, name
        for version in listed["versions"]:
            described = description_for(name, version)
            assert described is not None and described.get("requestDefaults") is not None, (name, version)


def test_they_report_as_declarative_and_native_types_win() -> None:
    registry = NodeRegistry()
    assert getattr(registry.type_class("n8n-nodes-base.okta"), "declarative", False)
    n8n = registry.type_class("n8n-nodes-base.n8n")  # declarative in n8n; Weft's own node runs it
    assert n8n is not None and not getattr(n8n, "declarative", False)
    assert len(declarative_types()) >= 20 and "n8n-nodes-base.n8n" not in declarative_types()
    assert set(declarative_types()) <= set(registry.names())


def test_nodes_n8n_runs_with_code_are_not_offered_as_declarative() -> None:
    """Asana and Pipedrive carry requestDefaults but n8n runs them with their ``execute`` method."""
    assert "n8n-nodes-base.asana" not in declarative_types()
    assert "n8n-nodes-base.pipedrive" not in declarative_types()


def test_every_port_matches_a_function_of_a_shipped_description() -> None:
    shas = set()
    for name in declarative_types():
        for version in declarative_types()[name]["versions"]:
            shas.update(m["sha"] for m in _markers(description_for(name, version)))
    ported = {line.rsplit("(", 1)[1].rstrip(")") for line in ported_names()}
    credential_shas = {"a7b5a9b3702909fe", "21e70aa1f7696973"}  # openAiApi.authenticate, metabaseApi.preAuthentication
    credential_shas.add("83ef60a67a3d6f82")  # trelloApi.authenticate
    credential_shas.add("9ca81477660b32ff")  # notionApi.authenticate
    credential_shas.update({"31fa7da1e033a506", "1c8d63f57e60c0a2"})  # Azure Cosmos DB / Storage shared key
    credential_shas.update({"15c9f80033552be8", "3b297eea18000c3f"})  # aws / awsAssumeRole SigV4 signing
    credential_shas.add("661362641ad695d9")  # googleApi.authenticate (a service account's token)
    for listed in ported:
        for sha in listed.split(", "):
            assert sha in shas or sha in credential_shas, f"port of {sha} matches no function: remove it"
    assert all(find_port({"sha": sha}) for sha in credential_shas)
