// The REST calls of running from the editor: a run (whole, or partial up to a node), stop, and the links of a
// waiting execution (its resume URL; a human-approval request's approve/decline links).
import { call, type RunStarted } from "./api";
import type { RunRequest } from "./run";

/** ``GET /rest/executions/{id}/waiting``: what the node panel shows of a waiting execution. */
export interface WaitingInfo {
  executionId: string;
  nodeName: string;
  waitTill?: string | null;
  resumeUrl: string;
  approval?: { approveUrl: string; declineUrl: string; message?: string | null } | null;
}

const enc = encodeURIComponent;

/** Start a manual run and answer as soon as the execution exists (follow it with ``push.ts``). ``body``: n8n's
 * ``{runData, destinationNode, dirtyNodeNames, ...}`` of a partial execution; none runs the whole workflow. */
export const runWorkflow = (workflowId: string, body?: RunRequest) =>
  call<{ data: RunStarted }>("POST", `/rest/workflows/${enc(workflowId)}/run?wait=false`, body ?? {}).then(
    (r) => r.data,
  );

/** Stop a running (or waiting) execution: it ends ``canceled``. */
export const stopExecution = (executionId: string) =>
  call<{ data: { status?: string } }>("POST", `/rest/executions/${enc(executionId)}/stop`).then((r) => r.data);

/** An execution's status, without its data (cheap to ask again and again). */
export const executionStatusOf = (executionId: string) =>
  call<{ data: { status: string } }>("GET", `/rest/executions/${enc(executionId)}?includeData=false`).then(
    (r) => r.data.status,
  );

/** The waiting node of an execution with its links; 404 when it does not wait. */
export const waitingInfo = (executionId: string) =>
  call<{ data: WaitingInfo }>("GET", `/rest/executions/${enc(executionId)}/waiting`).then((r) => r.data);

/** Open a signed link as a user's click would (same origin: the link's path and query). */
export async function openLink(link: string): Promise<number> {
  const url = new URL(link, window.location.origin);
  const response = await fetch(url.pathname + url.search, { method: "GET", credentials: "same-origin" });
  return response.status;
}
