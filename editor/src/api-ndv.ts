// The node panel's REST calls: an execution's run data, and the server's preview of an expression.
import { call } from "./api";
import type { Workflow } from "./graph";
import type { NodeError, RunData } from "./ndv";

/** An execution with its data, as ``GET /rest/executions/{id}?includeData=true`` answers. */
export interface ExecutionData {
  id: string;
  status: string;
  workflowId?: string | null;
  workflowData?: Workflow | null;
  data?: { resultData?: { runData?: RunData; error?: NodeError | null; lastNodeExecuted?: string } } | null;
}

export interface PreviewRequest {
  workflow: Workflow;
  nodeName: string;
  expression: string;
  executionId: string | null;
  itemIndex?: number;
  runIndex?: number;
}

export interface PreviewResult {
  result: string | null;
  error: { message: string; description?: string | null } | null;
}

export const ndvApi = {
  execution: (id: string) =>
    call<{ data: ExecutionData }>("GET", `/rest/executions/${encodeURIComponent(id)}?includeData=true`).then(
      (r) => r.data,
    ),
  /** ``POST /rest/expressions/preview``: the expression's text as the editor previews it, or its error. */
  preview: (body: PreviewRequest) =>
    call<{ data: PreviewResult }>("POST", "/rest/expressions/preview", body).then((r) => r.data),
};
