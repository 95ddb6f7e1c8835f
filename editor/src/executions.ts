// Pure helpers of the executions list: n8n's status names and filters, durations, what can be retried.

/** n8n's execution statuses (``ExecutionStatus``). */
export type ExecutionStatus = "canceled" | "crashed" | "error" | "new" | "running" | "success" | "unknown" | "waiting";

/** The status filter's choices, as n8n's executions filter offers them ("" is "Any Status"). */
export const STATUS_FILTERS: { value: string; label: string }[] = [
  { value: "", label: "Any Status" },
  { value: "success", label: "Success" },
  { value: "error", label: "Error" },
  { value: "canceled", label: "Canceled" },
  { value: "running", label: "Running" },
  { value: "waiting", label: "Waiting" },
];

const LABELS: Record<string, string> = {
  canceled: "Canceled",
  crashed: "Error", // n8n shows crashed executions as errors
  error: "Error",
  new: "Queued",
  running: "Running",
  success: "Success",
  unknown: "Could not complete",
  waiting: "Waiting",
};

/** n8n's label of a status ("Success", "Queued" for ``new``…). */
export function statusLabel(status: string): string {
  return LABELS[status] ?? status;
}

/** The statuses a filter choice stands for: "error" also finds crashed executions and "running" queued ones. */
export function statusesOf(choice: string): string[] {
  if (!choice) return [];
  if (choice === "error") return ["error", "crashed"];
  return choice === "running" ? ["running", "new"] : [choice];
}

/** Not over yet: its duration grows and the list refreshes while one is shown. */
export function isRunning(status: string): boolean {
  return status === "running" || status === "new";
}

/** Failed, crashed or canceled: the server retries these (``POST /rest/executions/{id}/retry``). */
export function canRetry(status: string): boolean {
  return status === "error" || status === "crashed" || status === "canceled";
}

/** Milliseconds from start to stop, or to ``now`` while it runs; ``null`` when it never started. */
export function durationMs(
  row: { status: string; startedAt?: string | null; stoppedAt?: string | null },
  now: number,
): number | null {
  if (!row.startedAt) return null;
  const start = new Date(row.startedAt).getTime();
  const end = row.stoppedAt ? new Date(row.stoppedAt).getTime() : isRunning(row.status) ? now : null;
  return end === null ? null : Math.max(0, end - start);
}

/** "850 ms", "1.2 s", "2m 5s", "1h 3m". */
export function formatDuration(ms: number | null): string {
  if (ms === null) return "";
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
  return `${Math.floor(seconds / 3600)}h ${Math.floor((seconds % 3600) / 60)}m`;
}

/** Running or waiting: the server can stop it (``POST /rest/executions/{id}/stop``). */
export function canStop(status: string): boolean {
  return isRunning(status) || status === "waiting";
}

/** What a waiting execution waits for: n8n's "until {time}", or a call when it waits indefinitely (year 3000). */
export function waitLabel(waitTill?: string | null): string {
  if (!waitTill) return "";
  const until = new Date(waitTill);
  return until.getUTCFullYear() >= 3000 ? "until it is called" : `until ${until.toLocaleString()}`;
}

/** The started date and time in the browser's locale. */
export function startedLabel(startedAt?: string | null): string {
  return startedAt ? new Date(startedAt).toLocaleString() : "";
}

/** A ``datetime-local`` input's value (local time) as the ISO date-time the server filters on. */
export function localToIso(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
