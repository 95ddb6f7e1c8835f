"""``@n8n/n8n-nodes-langchain.outputParserItemList``: the Item List Output Parser (n8n's
``N8nItemListOutputParser``).

The answer is split on a separator (a new line by default; ``\\n`` written out means one), trimmed, empty
parts dropped, and cut to ``numberOfItems`` (3 when the option is not set, as in n8n; ``-1``: no limit). Fewer
parts than ``numberOfItems`` is an error. The parser has no schema, so the agent's
``format_final_json_response`` takes one string, ``text``, and the agent's item is the list spread into it
(``{"0": …, "1": …}``, recorded: a219)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from weft.ai.parsers.model_schema import offered_schema
from weft.ai.parsers.structured import PARSE_ERROR, PARSE_ERROR_DESCRIPTION, TROUBLESHOOTING
from weft.errors import NodeOperationError
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext
from weft.workflow import AI_OUTPUT_PARSER

#: The agent's tool schema when the parser has none (``z.object({text: z.string()})``).
TEXT_SCHEMA = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}


@dataclass(frozen=True, kw_only=True)
class ItemListOutputParser:
    """What the Item List Output Parser supplies."""

    node_name: str
    """The agent's: the error is the agent's own, as LangChain's exception reaches n8n's agent."""
    number_of_items: int | None
    separator: str

    def tool_schema(self) -> dict[str, Any]:
        return offered_schema(TEXT_SCHEMA)

    def format_instructions(self) -> str:
        """n8n's ``getFormatInstructions`` (an auto-fixing parser's ``{instructions}``)."""
        count = f"{self.number_of_items} " if self.number_of_items else ""
        examples = self.separator.join(f"item{i}" for i in range(1, (self.number_of_items or 3) + 1))
        prefix = f"Your response should be a list of {count}items separated by"
        return f'{prefix} "{self.separator}" (for example: "{examples}")'

    async def parse(self, text: str) -> list[str]:
        parts = [part.strip() for part in text.split(self.separator)]
        items = [part for part in parts if part]
        if self.number_of_items and len(items) < self.number_of_items:
            # n8n 2.41 rewords LangChain's "Wrong number of items returned …" (2.8.4 passed it on; a221, a222)
            error = NodeOperationError(
                self.node_name,
                PARSE_ERROR,
                description=PARSE_ERROR_DESCRIPTION,
                item_index=0,
                outputParserFailReason="Model output does not match the expected schema",
            )
            expected, got = self.number_of_items, len(items)
            wrong = f"Wrong number of items returned. Expected {expected} items but got {got} items instead."
            error.validation_error = wrong  # type: ignore[attr-defined]
            error.fix_message = wrong + TROUBLESHOOTING  # type: ignore[attr-defined]
            raise error
        return items[: self.number_of_items] if self.number_of_items else items


class OutputParserItemList(NodeType):
    """Item List Output Parser: supplies an :class:`ItemListOutputParser`."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.outputParserItemList",
        display_name="Item List Output Parser",
        versions=(1,),
        description="Return the results as separate items",
        inputs=(),
        outputs=(AI_OUTPUT_PARSER,),
        defaults={"options": {}},
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> ItemListOutputParser:
        options = ctx.get_node_parameter("options", item_index, {}) or {}
        count = options.get("numberOfItems", 3)  # n8n: `{numberOfItems = 3} = options` (the option's -1 is unset)
        separator = options.get("separator", "\n")
        if not isinstance(count, int | float) or isinstance(count, bool):
            raise NodeOperationError(
                ctx.node.name,
                f"Parameter 'options.numberOfItems' must be a number, got {count!r}",
                description="Set 'Number Of Items' to a whole number, or -1 for no limit.",
            )
        return ItemListOutputParser(
            node_name=ctx.parent_node_name,
            number_of_items=int(count) if count > 0 else None,
            separator="\n" if separator == "\\n" else str(separator),
        )


__all__ = ["ItemListOutputParser", "OutputParserItemList"]
