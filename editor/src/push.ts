// Live execution status (n8n's push): follow a running manual execution through GET /rest/push (Server-Sent
// Events) and turn its node events into canvas statuses as they happen.
import type { NodeStatus } from "./graph";

export interface PushEvent {
  type: "nodeExecuteBefore" | "nodeExecuteAfter" | "executionFinished";
  data: {
    executionId: string;
    nodeName?: string;
    status?: string;
    itemCountByConnectionType?: Record<string, number[]>;
    error?: { message?: string; description?: string | null };
  };
}

/** The canvas statuses after ``event``: a node runs, then shows its items (summed over its runs) or its error. */
export function applyPush(statuses: Record<string, NodeStatus>, event: PushEvent): Record<string, NodeStatus> {
  const name = event.data.nodeName;
  if (!name || event.type === "executionFinished") return statuses;
  const previous = statuses[name];
  const done = previous && previous.status !== "running" ? previous : undefined;
  if (event.type === "nodeExecuteBefore") {
    return { ...statuses, [name]: { status: "running", items: done?.items ?? 0, error: done?.error } };
  }
  let items = done?.items ?? 0;
  for (const counts of Object.values(event.data.itemCountByConnectionType ?? {})) {
    for (const count of counts) items += count;
  }
  const failed = event.data.status === "error";
  const error = failed ? (event.data.error?.message ?? "error") : done?.error;
  return { ...statuses, [name]: { status: error ? "error" : "success", items, error } };
}

/** The node and its error (message, description) when ``event`` tells a node failed. */
export function errorOfEvent(event: PushEvent): [string, { message: string; description: string | null }] | null {
  const { nodeName, error } = event.data;
  if (event.type !== "nodeExecuteAfter" || !nodeName || !error) return null;
  return [nodeName, { message: error.message ?? "error", description: error.description ?? null }];
}

/** Follow ``executionId``: ``onEvent`` for each event; resolves when the execution finished or the stream broke
 * (the caller then reads the stored execution). */
export function follow(executionId: string, onEvent: (event: PushEvent) => void): Promise<void> {
  return new Promise((resolve) => {
    const source = new EventSource(`/rest/push?executionId=${encodeURIComponent(executionId)}`);
    const end = (): void => {
      source.close();
      resolve();
    };
    source.onmessage = (message: MessageEvent<string>) => {
      const event = JSON.parse(message.data) as PushEvent;
      onEvent(event);
      if (event.type === "executionFinished") end();
    };
    source.onerror = end;
  });
}
