// The REST calls of the editor: same origin, the session cookie (n8n-auth) goes with every call.
import type { Workflow } from "./graph";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { "content-type": "application/json" };
  }
  const response = await fetch(path, init);
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const answer = parsed as { message?: string; detail?: unknown } | null;
    const detail = typeof answer?.detail === "string" ? answer.detail : JSON.stringify(answer?.detail ?? "");
    throw new ApiError(response.status, answer?.message ?? detail ?? response.statusText);
  }
  return parsed as T;
}

export interface User {
  id: string;
  email: string;
  firstName?: string;
}

export interface StoredWorkflow extends Workflow {
  id: string;
  active: boolean;
  versionId?: string | null;
  createdAt?: string | null;
  updatedAt?: string | null;
}

export interface ExecutionRow {
  id: string;
  status: string;
  mode: string;
  startedAt?: string | null;
  stoppedAt?: string | null;
  workflowId?: string | null;
  workflowData?: Workflow | null;
  data?: { resultData?: { runData?: Record<string, RunEntry[]>; error?: { message?: string } } } | null;
}

export interface RunEntry {
  executionStatus?: string;
  error?: { message?: string } | null;
  data?: Record<string, (unknown[] | null)[]>;
}

export interface RunStarted {
  executionId?: string | null;
  status?: string | null;
  waitingForWebhook: boolean;
  testUrls: string[];
}

/** The fields the server adds to a stored workflow: they are not part of the workflow JSON a save sends. */
export const SERVER_FIELDS = ["active", "versionId", "createdAt", "updatedAt"] as const;

/** Each workflow's ``versionId`` as last loaded or saved: a save sends it, as n8n's editor does (the server refuses
 * a save based on an older version). Kept here, not in the edited document, so an undo cannot bring back an old one. */
const versions = new Map<string, string>();
function seen(workflow: StoredWorkflow): StoredWorkflow {
  if (workflow.versionId) versions.set(workflow.id, workflow.versionId);
  return workflow;
}

export const api = {
  me: () => call<{ data: User }>("GET", "/rest/login").then((r) => r.data),
  login: (email: string, password: string) =>
    call<{ data: User }>("POST", "/rest/login", { emailOrLdapLoginId: email, password }).then((r) => r.data),
  setupOwner: (body: { email: string; firstName: string; lastName: string; password: string }) =>
    call<{ data: User }>("POST", "/rest/owner/setup", body).then((r) => r.data),
  logout: () => call<unknown>("POST", "/rest/logout"),
  workflows: () => call<{ data: StoredWorkflow[] }>("GET", "/rest/workflows").then((r) => r.data),
  workflow: (id: string) =>
    call<{ data: StoredWorkflow }>("GET", `/rest/workflows/${encodeURIComponent(id)}`).then((r) => seen(r.data)),
  create: (workflow: Workflow) =>
    call<{ data: StoredWorkflow }>("POST", "/rest/workflows", workflow).then((r) => r.data),
  save: (id: string, workflow: Workflow) =>
    call<{ data: StoredWorkflow }>("PATCH", `/rest/workflows/${encodeURIComponent(id)}`, {
      ...workflow,
      versionId: versions.get(id) ?? workflow.versionId,
    }).then((r) => seen(r.data)),
  remove: (id: string) => call<unknown>("DELETE", `/rest/workflows/${encodeURIComponent(id)}`),
  importJson: (body: unknown) =>
    call<{ data: StoredWorkflow[] }>("POST", "/rest/workflows/import", body).then((r) => r.data),
  setActive: (id: string, active: boolean) =>
    call<{ data: StoredWorkflow }>(
      "POST",
      `/rest/workflows/${encodeURIComponent(id)}/${active ? "activate" : "deactivate"}`,
    ).then((r) => r.data),
  /** ``wait: false``: the answer comes as soon as the execution exists; follow it with ``push.ts``. */
  run: (id: string, wait = true) =>
    call<{ data: RunStarted }>("POST", `/rest/workflows/${encodeURIComponent(id)}/run${wait ? "" : "?wait=false"}`).then(
      (r) => r.data,
    ),
  executions: (workflowId: string) =>
    call<{ data: ExecutionRow[] }>("GET", `/rest/executions?workflowId=${encodeURIComponent(workflowId)}`).then(
      (r) => r.data,
    ),
  execution: (id: string) =>
    call<{ data: ExecutionRow }>("GET", `/rest/executions/${encodeURIComponent(id)}?includeData=true`).then(
      (r) => r.data,
    ),
};

/** The workflow JSON to send back: what was loaded, edited, without the fields the server adds. */
export function savable(workflow: StoredWorkflow | Workflow): Workflow {
  const copy: Record<string, unknown> = JSON.parse(JSON.stringify(workflow));
  for (const key of SERVER_FIELDS) delete copy[key];
  return copy as Workflow;
}

/** A node type the server runs, as ``GET /rest/node-types`` lists it (for the node creator). */
export interface NodeTypeInfo {
  name: string;
  displayName: string;
  description: string;
  versions: number[];
  defaultVersion: number;
  defaults: Record<string, unknown>;
  group: string[];
  inputs: string[];
  outputs: string[];
}

/** Every node type the server runs. */
export const nodeTypes = () => call<{ data: NodeTypeInfo[] }>("GET", "/rest/node-types").then((r) => r.data);
