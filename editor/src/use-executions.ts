// The state of an executions list (the page of all executions and the canvas's panel): the filter, the loaded
// pages, retry and delete, and a bounded auto-refresh while something runs.
import { onScopeDispose, reactive, ref, watch } from "vue";
import {
  deleteExecution,
  listExecutions,
  retryExecution,
  stopExecution,
  type ExecutionFilter,
  type ExecutionSummary,
} from "./api-executions";
import { isRunning, statusLabel } from "./executions";

const PAGE = 20; // n8n's page size
const REFRESH_MS = 2000;
const MAX_REFRESHES = 300; // ~10 minutes of one running execution, then Refresh by hand

export function useExecutions(base: ExecutionFilter = {}) {
  const filter = reactive<ExecutionFilter>({ ...base });
  const rows = ref<ExecutionSummary[]>([]);
  const count = ref(0);
  const nextCursor = ref<string | null>(null);
  const error = ref("");
  const message = ref("");
  const loaded = ref(false);
  const now = ref(Date.now());
  let timer: number | undefined;
  let clock: number | undefined;
  let refreshes = 0;
  let latest = 0; // only the newest load's answer is shown (the filter may change while one is on its way)

  async function attempt(action: () => Promise<void>): Promise<void> {
    error.value = "";
    try {
      await action();
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
    }
  }

  /** The first page again (as many rows as are shown, so "Load more" pages stay). */
  const load = () =>
    attempt(async () => {
      const asked = ++latest;
      const page = await listExecutions(filter, Math.min(250, Math.max(PAGE, rows.value.length)));
      if (asked !== latest) return;
      rows.value = page.data;
      count.value = page.count;
      nextCursor.value = page.nextCursor;
      loaded.value = true;
      follow();
    });

  const loadMore = () =>
    attempt(async () => {
      if (!nextCursor.value) return;
      const page = await listExecutions(filter, PAGE, nextCursor.value);
      rows.value = [...rows.value, ...page.data];
      nextCursor.value = page.nextCursor;
    });

  /** While a shown execution runs: tick its duration every second and reload every 2 s (bounded). */
  function follow(): void {
    window.clearTimeout(timer);
    const running = rows.value.some((r) => isRunning(r.status));
    if (running && !clock) clock = window.setInterval(() => (now.value = Date.now()), 1000);
    if (!running && clock) {
      window.clearInterval(clock);
      clock = undefined;
    }
    if (running && refreshes < MAX_REFRESHES) {
      refreshes++;
      timer = window.setTimeout(load, REFRESH_MS);
    } else if (!running) refreshes = 0;
  }

  const remove = (id: string) =>
    attempt(async () => {
      await deleteExecution(id);
      message.value = "Execution deleted";
      await load();
    });

  const stop = (id: string) =>
    attempt(async () => {
      await stopExecution(id);
      message.value = "Execution stopped";
      await load();
    });

  const retry = (id: string, loadWorkflow: boolean) =>
    attempt(async () => {
      const retried = await retryExecution(id, loadWorkflow);
      message.value = retried.status === "success" ? "Retry successful" : `Retry: ${statusLabel(retried.status)}`;
      await load();
    });

  watch(filter, () => {
    rows.value = [];
    void load();
  });
  onScopeDispose(() => {
    window.clearTimeout(timer);
    window.clearInterval(clock);
  });
  return { filter, rows, count, nextCursor, error, message, loaded, now, load, loadMore, remove, retry, stop };
}
