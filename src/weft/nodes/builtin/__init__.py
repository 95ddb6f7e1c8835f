"""Built-in node types, one per module, imported on first use."""

from __future__ import annotations

_BASE = "n8n-nodes-base."

#: ``{type name: "module:Class"}`` of every built-in node type.
CATALOG: dict[str, str] = {
    _BASE + "manualTrigger": "weft.nodes.builtin.manual_trigger:ManualTrigger",
    _BASE + "start": "weft.nodes.builtin.manual_trigger:Start",
    _BASE + "noOp": "weft.nodes.builtin.no_op:NoOp",
    _BASE + "executionData": "weft.nodes.builtin.execution_data:ExecutionData",
    _BASE + "renameKeys": "weft.nodes.builtin.rename_keys:RenameKeys",
    _BASE + "stickyNote": "weft.nodes.builtin.sticky_note:StickyNote",
    _BASE + "set": "weft.nodes.builtin.set:Set",
    _BASE + "if": "weft.nodes.builtin.if_:If",
    _BASE + "switch": "weft.nodes.builtin.switch:Switch",
    _BASE + "filter": "weft.nodes.builtin.filter:Filter",
    _BASE + "merge": "weft.nodes.builtin.merge:Merge",
    _BASE + "limit": "weft.nodes.builtin.limit:Limit",
    _BASE + "splitOut": "weft.nodes.builtin.split_out:SplitOut",
    _BASE + "aggregate": "weft.nodes.builtin.aggregate:Aggregate",
    _BASE + "sort": "weft.nodes.builtin.sort:Sort",
    _BASE + "removeDuplicates": "weft.nodes.builtin.remove_duplicates:RemoveDuplicates",
    _BASE + "stopAndError": "weft.nodes.builtin.stop_and_error:StopAndError",
    _BASE + "splitInBatches": "weft.nodes.builtin.split_in_batches:SplitInBatches",
    _BASE + "code": "weft.nodes.builtin.code:Code",
    _BASE + "httpRequest": "weft.nodes.builtin.http_request:HttpRequest",
    _BASE + "executeWorkflow": "weft.nodes.builtin.execute_workflow:ExecuteWorkflow",
    _BASE + "executeWorkflowTrigger": "weft.nodes.builtin.execute_workflow_trigger:ExecuteWorkflowTrigger",
    _BASE + "wait": "weft.nodes.builtin.wait:Wait",
    _BASE + "emailSend": "weft.nodes.builtin.email_send:EmailSend",
    _BASE + "webhook": "weft.nodes.builtin.webhook:Webhook",
    _BASE + "respondToWebhook": "weft.nodes.builtin.respond_to_webhook:RespondToWebhook",
    _BASE + "compareDatasets": "weft.nodes.builtin.compare_datasets:CompareDatasets",
    _BASE + "summarize": "weft.nodes.builtin.summarize:Summarize",
    _BASE + "scheduleTrigger": "weft.nodes.builtin.schedule_trigger:ScheduleTrigger",
}
