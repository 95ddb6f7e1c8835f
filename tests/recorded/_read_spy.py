"""A spy on the parameters nodes read: every (node type, typeVersion, parameter path) Weft reads while running,
checked against n8n's description of that type and version (:func:`weft.nodes.property_paths.described`).

Every read goes through ``get_node_parameter`` of the engine's contexts (``weft.engine.context``) or of Item
Lists' delegated context (which reads as the node type it delegates to); the spy wraps both for a ``with``. The
recorded suite checks each case; the node-test folders check each test (their ``conftest.py`` imports
:func:`pytest_runtest_call`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import pytest

from weft.engine.context import _BaseContext
from weft.library.core._item_lists_context import DelegatedContext
from weft.nodes.node_properties import described_versions, description_for
from weft.nodes.property_paths import described

#: (type, version, path, id of the node's parameters) -> the node's parameters
Reads = dict[tuple[str, float, str, int], Mapping[str, Any]]

#: Reads n8n itself makes of a parameter its description lacks: (type, path) -> the n8n file that reads it.
N8N_READS_UNDESCRIBED: dict[tuple[str, str], str] = {
    ("@n8n/n8n-nodes-langchain.agentTool", "promptType"): (
        "packages/@n8n/nodes-langchain/nodes/agents/Agent/agents/ToolsAgent/V3/helpers/prepareItemContext.ts "
        "(getPromptInputByType with promptTypeKey 'promptType', default 'define'; V2/execute.ts alike)"
    ),
    # read in every version; described from Set 3.3, Structured Output Parser 1.2, OpenAI Chat Model 1.3
    ("n8n-nodes-base.set", "includeOtherFields"): "packages/nodes-base/nodes/Set/v2/SetV2.node.ts (execute)",
    ("@n8n/n8n-nodes-langchain.outputParserStructured", "schemaType"): (
        "packages/@n8n/nodes-langchain/nodes/output_parser/OutputParserStructured/OutputParserStructured.node.ts"
    ),
    ("@n8n/n8n-nodes-langchain.lmChatOpenAi", "responsesApiEnabled"): (
        "packages/@n8n/nodes-langchain/nodes/llms/LMChatOpenAi/LmChatOpenAi.node.ts (supplyData)"
    ),
    # the Summarization Chain 2 loads its input with the Default Data Loader's loaders, which read their own options
    **{
        ("@n8n/n8n-nodes-langchain.chainSummarization", path): (
            "packages/@n8n/ai-utilities/src/utils/n8n-json-loader.ts, n8n-binary-loader.ts "
            "(new N8nJsonLoader(ctx, 'options.') / N8nBinaryLoader in ChainSummarization/V2/processItem.ts)"
        )
        for path in ("jsonMode", "options.pointers", "binaryMode", "loader")
    },
    # prepareFormReturnItem reads it for every form node; only Form Trigger 2+ describes it
    ("n8n-nodes-base.form", "options.showHeaders"): "packages/nodes-base/nodes/Form/utils/utils.ts",
    ("n8n-nodes-base.formTrigger", "options.showHeaders"): "packages/nodes-base/nodes/Form/utils/utils.ts",
}


@contextmanager
def parameter_reads() -> Iterator[Reads]:
    """The parameter reads of the nodes run inside the ``with``."""
    reads: Reads = {}
    engine_read = _BaseContext.get_node_parameter
    delegated_read = DelegatedContext.get_node_parameter

    def spy_engine(self: Any, name: str, *args: Any, **kwargs: Any) -> Any:
        node = self.node
        reads.setdefault((node.type, float(node.typeVersion), name, id(node.parameters)), node.parameters)
        return engine_read(self, name, *args, **kwargs)

    def spy_delegated(self: Any, name: str, *args: Any, **kwargs: Any) -> Any:
        node, worker = self.node, self._worker.description.name
        reads.setdefault((worker, float(node.typeVersion), name, id(node.parameters)), node.parameters)
        return delegated_read(self, name, *args, **kwargs)

    _BaseContext.get_node_parameter = spy_engine  # type: ignore[method-assign]
    DelegatedContext.get_node_parameter = spy_delegated  # type: ignore[method-assign]
    try:
        yield reads
    finally:
        _BaseContext.get_node_parameter = engine_read  # type: ignore[method-assign]
        DelegatedContext.get_node_parameter = delegated_read  # type: ignore[method-assign]


def undescribed(reads: Reads) -> list[str]:
    """A message for each read the node type's n8n description (at that version) does not describe."""
    problems: set[str] = set()
    for (type_name, version, path, _), parameters in reads.items():
        if (type_name, path) in N8N_READS_UNDESCRIBED:
            continue
        description = description_for(type_name, version)
        if description is None:
            problems.add(f"{type_name} {version:g}: no n8n description (reads {path!r})")
        elif not described(description["properties"], path, version, parameters):
            problems.add(f"{type_name} {version:g} reads parameter {path!r}, which its n8n description does not have")
    return sorted(problems)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Imported by a ``conftest.py``: each test there fails on a read its node types' descriptions lack (types
    with no description at all, such as a test's own, are left out)."""
    with parameter_reads() as reads:
        result = yield
    missing = undescribed({key: value for key, value in reads.items() if described_versions(key[0])})
    if missing:
        raise AssertionError(f"{item.name}: parameters read that n8n does not describe:\n" + "\n".join(missing))
    return result


def checked(reads: Reads) -> set[tuple[str, float, str]]:
    """The distinct (type, version, path) reads."""
    return {(type_name, version, path) for type_name, version, path, _ in reads}
