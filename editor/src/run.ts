// Running from the editor, the pure part: which nodes changed since the run whose data a partial execution
// reuses (n8n's dirty nodes), the request of a partial run, and the run state the canvas nodes read.
import type { InjectionKey, Ref } from "vue";
import type { Workflow, WorkflowNode } from "./graph";
import type { RunEntry } from "./api";

/** n8n's ``POST /rest/workflows/{id}/run`` body of a partial execution (every field optional). */
export interface RunRequest {
  destinationNode?: string;
  runData?: Record<string, RunEntry[]>;
  dirtyNodeNames?: string[];
  /** Weft: take the run data from this execution of the same workflow instead of sending it. */
  baseExecutionId?: string;
}

/** A failed node's error as the canvas shows it: n8n's NodeError message and description. */
export interface NodeErrorInfo {
  message: string;
  description?: string | null;
}

/** What the canvas nodes read of the current run (provided by WorkflowCanvas.vue). */
export interface RunState {
  pinned: Ref<ReadonlySet<string>>;
  waiting: Ref<string | null>;
  errors: Ref<Record<string, NodeErrorInfo>>;
  running: Ref<boolean>;
  readOnly: Ref<boolean>;
  /** Run up to the node ``name`` (n8n's "Execute step"), reusing the last run's data where still valid. */
  executeTo: (name: string) => void;
  /** Follow the execution ``executionId`` on the canvas to its end (after a waiting one was resumed). */
  followRun: (executionId: string) => void;
}

export const RUN: InjectionKey<RunState> = Symbol("weft-run");

/** JSON with every object's keys sorted, at every depth (the same value always gives the same text). */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What of a node decides its output: everything but where it sits on the canvas. */
function essence(node: WorkflowNode): string {
  const { position: _position, ...rest } = node;
  void _position;
  return stable(rest);
}

function incoming(workflow: Workflow, name: string): string {
  const sources: string[] = [];
  for (const [source, byType] of Object.entries(workflow.connections ?? {})) {
    for (const [type, outputs] of Object.entries(byType ?? {})) {
      (outputs ?? []).forEach((targets, index) => {
        for (const t of targets ?? []) if (t.node === name) sources.push(`${source}:${type}:${index}>${t.index}`);
      });
    }
  }
  return sources.sort().join("|");
}

function pins(workflow: Workflow): Record<string, unknown> {
  return (workflow.pinData as Record<string, unknown> | undefined) ?? {};
}

/** n8n's dirty nodes: nodes whose parameters (settings, credentials), incoming connections or pinned data changed
 * between ``ran`` (the workflow of the run whose data is reused) and ``now``; new nodes too. */
export function dirtyNodes(ran: Workflow, now: Workflow): string[] {
  const before = new Map(ran.nodes.map((n) => [n.name, n]));
  const [pinsBefore, pinsNow] = [pins(ran), pins(now)];
  return now.nodes
    .filter((node) => {
      const old = before.get(node.name);
      if (!old) return true;
      if (essence(old) !== essence(node)) return true;
      if (incoming(ran, node.name) !== incoming(now, node.name)) return true;
      return stable(pinsBefore[node.name]) !== stable(pinsNow[node.name]);
    })
    .map((node) => node.name);
}

/** The request of "execute up to ``destination``": reuse the last run's data (by its id) unless there is none. */
export function partialRequest(
  destination: string,
  base: { executionId: string; workflow: Workflow } | null,
  now: Workflow,
): RunRequest {
  if (!base) return { destinationNode: destination };
  const dirtyNodeNames = dirtyNodes(base.workflow, now);
  return { destinationNode: destination, baseExecutionId: base.executionId, dirtyNodeNames };
}

/** The names of the pinned nodes of ``workflow``. */
export function pinnedNames(workflow: Workflow | null): ReadonlySet<string> {
  return new Set(Object.keys(workflow ? pins(workflow) : {}));
}

/** Each failed node's error (message and description) in the run data of an execution. */
export function errorsOf(runData: Record<string, RunEntry[]>): Record<string, NodeErrorInfo> {
  const found: Record<string, NodeErrorInfo> = {};
  for (const [name, runs] of Object.entries(runData ?? {})) {
    for (const run of runs ?? []) {
      const error = run.error as { message?: string; description?: string | null } | null | undefined;
      if (error) found[name] = { message: error.message ?? "error", description: error.description ?? null };
    }
  }
  return found;
}
