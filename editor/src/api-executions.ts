// The REST calls of the executions list: n8n's ``GET /rest/executions?filter=…``, retry, delete, stop.
import { call, type ExecutionRow } from "./api";

/** A row of ``GET /rest/executions`` (no run data): the execution and its workflow's name. */
export interface ExecutionSummary extends ExecutionRow {
  workflowName?: string | null;
  retryOf?: string | null;
  retrySuccessId?: string | null;
  waitTill?: string | null;
}

/** n8n's executions filter (the ``filter`` query parameter, as JSON). */
export interface ExecutionFilter {
  workflowId?: string;
  status?: string[];
  startedAfter?: string;
  startedBefore?: string;
}

export interface ExecutionsPage {
  data: ExecutionSummary[];
  /** Pass as ``lastId`` for the next page; ``null`` on the last one. */
  nextCursor: string | null;
  /** How many executions match the filter, over all pages. */
  count: number;
  estimated: boolean;
}

/** Only the filter's fields that are set: an empty status list or date is no condition. */
function compact(filter: ExecutionFilter): ExecutionFilter {
  const out: ExecutionFilter = {};
  if (filter.workflowId) out.workflowId = filter.workflowId;
  if (filter.status && filter.status.length) out.status = filter.status;
  if (filter.startedAfter) out.startedAfter = filter.startedAfter;
  if (filter.startedBefore) out.startedBefore = filter.startedBefore;
  return out;
}

/** One page of executions, newest first. */
export function listExecutions(filter: ExecutionFilter, limit: number, lastId?: string): Promise<ExecutionsPage> {
  const query = new URLSearchParams({ filter: JSON.stringify(compact(filter)), limit: String(limit) });
  if (lastId) query.set("lastId", lastId);
  return call<ExecutionsPage>("GET", `/rest/executions?${query.toString()}`);
}

/** Run a failed execution again: with the workflow as it ran, or (``loadWorkflow``) as it is saved now. */
export function retryExecution(id: string, loadWorkflow: boolean): Promise<ExecutionSummary> {
  return call<{ data: ExecutionSummary }>("POST", `/rest/executions/${encodeURIComponent(id)}/retry`, {
    loadWorkflow,
  }).then((r) => r.data);
}

export function deleteExecution(id: string): Promise<unknown> {
  return call<unknown>("DELETE", `/rest/executions/${encodeURIComponent(id)}`);
}

export function stopExecution(id: string): Promise<unknown> {
  return call<unknown>("POST", `/rest/executions/${encodeURIComponent(id)}/stop`);
}
