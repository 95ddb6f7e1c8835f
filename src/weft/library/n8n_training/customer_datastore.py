"""Customer Datastore (n8n training) (``n8n-nodes-base.n8nTrainingCustomerDatastore`` v1): n8n's dummy node of its
courses and many templates. It answers five fixed people (n8n's own list): the first for each item ("Get One
Person", without a paired item, as n8n), or up to ``limit`` of them (all with "Return All") per item."""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import Item, NodeOutput

PEOPLE: list[dict[str, Any]] = [
    {"id": "23423532", "name": "Jay Gatsby", "email": "gatsby@west-egg.com",
     "notes": "Keeps asking about a green light??", "country": "US", "created": "1925-04-10"},
    {"id": "23423533", "name": "José Arcadio Buendía", "email": "jab@macondo.co",
     "notes": "Lots of people named after him. Very confusing", "country": "CO", "created": "1967-05-05"},
    {"id": "23423534", "name": "Max Sendak", "email": "info@in-and-out-of-weeks.org",
     "notes": "Keeps rolling his terrible eyes", "country": "US", "created": "1963-04-09"},
    {"id": "23423535", "name": "Zaphod Beeblebrox", "email": "captain@heartofgold.com",
     "notes": "Felt like I was talking to more than one person", "country": None, "created": "1979-10-12"},
    {"id": "23423536", "name": "Edmund Pevensie", "email": "edmund@narnia.gov",
     "notes": "Passionate sailor", "country": "UK", "created": "1950-10-16"},
]  # fmt: skip


class N8nTrainingCustomerDatastore(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.n8nTrainingCustomerDatastore",
        display_name="Customer Datastore (n8n training)",
        versions=(1,),
        description="Dummy node used for n8n training",
        group=("transform",),
        defaults={"operation": "getOnePerson", "returnAll": False, "limit": 5},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        operation = ctx.get_node_parameter("operation", 0)
        out: list[Item] = []
        for index in range(len(ctx.get_input_data())):
            if operation == "getOnePerson":
                out.append({"json": copy.deepcopy(PEOPLE[0])})
            elif operation == "getAllPeople":
                every = ctx.get_node_parameter("returnAll", index)
                people = PEOPLE if every else PEOPLE[: max(int(ctx.get_node_parameter("limit", index)), 0)]
                out.extend({"json": copy.deepcopy(p), "pairedItem": {"item": index}} for p in people)
        return [out]


__all__ = ["N8nTrainingCustomerDatastore"]
