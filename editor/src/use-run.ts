// Running from the canvas (a composable of WorkflowCanvas.vue): the whole workflow or up to a node (n8n's partial
// execution), following the execution live (push) to its end or its wait, Stop, a webhook workflow's test call,
// and the run state the canvas nodes and the node panel read (provided as ``RUN``).
import { computed, nextTick, onBeforeUnmount, provide, ref, type Ref, type ShallowRef } from "vue";
import { api, type ExecutionRow } from "./api";
import { executionStatusOf, runWorkflow, stopExecution } from "./api-run";
import { statusesOf, type NodeStatus, type Workflow } from "./graph";
import { applyPush, errorOfEvent, follow } from "./push";
import { RUN, errorsOf, partialRequest, pinnedNames, type NodeErrorInfo, type RunRequest } from "./run";

/** As long as the server listens for a test webhook call (``LISTEN_SECONDS`` of ``services/listening.py``). */
const LISTEN_MS = 120_000;
/** How often a resumed execution is followed again while the stream still replays its earlier (waiting) run. */
const FOLLOW_ATTEMPTS = 50;
/** How often the canvas asks whether a waiting execution was resumed meanwhile (a resume URL called, a click). */
const WAITING_POLL_MS = 1_000;

/** What the canvas gives the runner. */
export interface RunHost {
  workflowId: string;
  doc: ShallowRef<Workflow | null>;
  version: Ref<number>;
  statuses: Ref<Record<string, NodeStatus>>;
  readOnly: Ref<boolean>;
  message: Ref<string>;
  error: Ref<string>;
  /** The execution whose data the node panel shows. */
  lastExecutionId: Ref<string | null>;
  /** Counts the runs shown (the executions panel reloads on it). */
  runs: Ref<number>;
  changed: () => void;
  attempt: (action: () => Promise<unknown>) => Promise<void>;
  /** Save the workflow when it has unsaved changes (the server runs the saved one). */
  saveFirst: () => Promise<void>;
}

export function useRun(host: RunHost) {
  /** The execution followed now (Stop stops it), the node it waits at, each failed node's error, its status. */
  const runningId = ref<string | null>(null);
  const waitingNode = ref<string | null>(null);
  const nodeErrors = ref<Record<string, NodeErrorInfo>>({});
  const executionStatus = ref("");
  /** The last run shown: its id and the workflow it ran (what "execute up to a node" reuses and compares with). */
  let lastRun: { executionId: string; workflow: Workflow } | null = null;
  let listening: number | undefined;
  let unmounted = false;
  /** The waiting execution the canvas watches for its resume (one at a time). */
  let watching: string | null = null;
  const pinned = computed(() => {
    void host.version.value;
    return pinnedNames(host.doc.value);
  });

  /** The run state of a stored execution: each failed node's error, the node it waits at, its status. */
  function runStateOf(found: ExecutionRow): void {
    nodeErrors.value = errorsOf(found.data?.resultData?.runData ?? {});
    executionStatus.value = found.status;
    const last = (found.data?.resultData as { lastNodeExecuted?: string } | undefined)?.lastNodeExecuted;
    waitingNode.value = found.status === "waiting" ? (last ?? null) : null;
  }

  async function showRun(executionId: string): Promise<void> {
    const found = await api.execution(executionId);
    if (host.lastExecutionId.value === found.id) {
      host.lastExecutionId.value = null; // a resumed execution: the node panel reads its data again
      await nextTick();
    }
    host.lastExecutionId.value = found.id;
    host.statuses.value = statusesOf(found.data?.resultData?.runData ?? {});
    runStateOf(found);
    if (found.workflowData) lastRun = { executionId: found.id, workflow: found.workflowData };
    const failure = found.data?.resultData?.error?.message;
    host.message.value = `Execution ${found.id}: ${found.status}${failure ? ` (${failure})` : ""}`;
    host.runs.value++;
    host.changed();
    if (found.status === "waiting") void awaitResume(found.id);
  }

  /** Follow an execution to its end (or its wait) and show it; a resumed one may still replay its earlier run. */
  async function followRun(executionId: string): Promise<void> {
    runningId.value = executionId;
    executionStatus.value = "running";
    host.message.value = `Execution ${executionId}: running`;
    try {
      for (let attempt = 0; attempt < FOLLOW_ATTEMPTS; attempt++) {
        await follow(executionId, (event) => {
          host.statuses.value = applyPush(host.statuses.value, event);
          const failed = errorOfEvent(event);
          if (failed) nodeErrors.value = { ...nodeErrors.value, [failed[0]]: failed[1] };
          host.changed();
        });
        const found = await api.execution(executionId);
        if (!["new", "running"].includes(found.status)) break;
        await new Promise((resolve) => window.setTimeout(resolve, 200));
      }
      await showRun(executionId);
    } finally {
      runningId.value = null;
    }
  }

  /** As n8n's editor: a waiting execution stays followed; once resumed, the canvas follows it to its end. */
  async function awaitResume(executionId: string): Promise<void> {
    if (watching === executionId) return;
    watching = executionId;
    const stillWaiting = () =>
      !unmounted && executionStatus.value === "waiting" && host.lastExecutionId.value === executionId;
    let resumed = false;
    try {
      while (stillWaiting() && !resumed) {
        await new Promise((resolve) => window.setTimeout(resolve, WAITING_POLL_MS));
        if (!stillWaiting() || runningId.value !== null) break;
        resumed = (await executionStatusOf(executionId).catch(() => "waiting")) !== "waiting";
      }
    } finally {
      watching = null;
    }
    if (resumed && stillWaiting() && runningId.value === null) await followRun(executionId);
  }

  /** After "Execute workflow" on a webhook workflow: show the run of the test call when it has finished. */
  function listen(known: Set<string>): void {
    const deadline = Date.now() + LISTEN_MS;
    const poll = async (): Promise<void> => {
      listening = undefined;
      const rows = await api.executions(host.workflowId).catch(() => []);
      const done = rows.find((row) => !known.has(row.id) && !["new", "running"].includes(row.status));
      if (done) await showRun(done.id);
      else if (Date.now() < deadline) listening = window.setTimeout(() => void poll(), 500);
      else host.message.value = "No test call came in: execute the workflow again to listen again.";
    };
    listening = window.setTimeout(() => void poll(), 500);
  }

  /** Save, then run: the whole workflow, or (``request``) a partial execution. */
  const execute = (request?: RunRequest) =>
    host.attempt(async () => {
      await host.saveFirst();
      if (!request) host.statuses.value = {};
      nodeErrors.value = {};
      waitingNode.value = null;
      host.changed();
      const known = new Set((await api.executions(host.workflowId)).map((row) => row.id));
      const started = await runWorkflow(host.workflowId, request);
      if (started.waitingForWebhook) {
        host.message.value = `Waiting for a test call: ${started.testUrls.join(", ")}`;
        listen(known);
      } else if (started.executionId) {
        await followRun(started.executionId);
      }
    });

  /** n8n's "Execute step": run up to ``name``, reusing the last run's data of the nodes that did not change. */
  function executeTo(name: string): void {
    if (host.readOnly.value || !host.doc.value) return;
    void execute(partialRequest(name, lastRun, host.doc.value));
  }

  /** Stop the running (or waiting) execution: it ends ``canceled``. */
  async function stop(): Promise<void> {
    const id = runningId.value ?? (executionStatus.value === "waiting" ? (lastRun?.executionId ?? null) : null);
    if (!id) return;
    try {
      await stopExecution(id);
      if (!runningId.value) await showRun(id);
    } catch (e) {
      host.error.value = e instanceof Error ? e.message : String(e);
    }
  }

  provide(RUN, {
    pinned,
    waiting: waitingNode,
    errors: nodeErrors,
    running: computed(() => runningId.value !== null),
    readOnly: host.readOnly,
    executeTo,
    followRun: (id: string) => void (runningId.value === id ? undefined : followRun(id)),
  });
  onBeforeUnmount(() => {
    unmounted = true;
    window.clearTimeout(listening);
  });

  return { runningId, executionStatus, runStateOf, showRun, run: () => execute(), executeTo, stop };
}
