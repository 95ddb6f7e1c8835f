// The node panel's pure helpers: a node's runs in an execution's run data (n8n's IRunExecutionData), the items of
// each output, the input a run was given (from its ``source``), table columns, renaming a node, pin data.
import type { Workflow } from "./graph";

export interface BinaryEntry {
  mimeType?: string;
  fileName?: string;
  fileSize?: string;
  fileExtension?: string;
  id?: string;
  data?: string;
  [key: string]: unknown;
}

export interface Item {
  json: Record<string, unknown>;
  binary?: Record<string, BinaryEntry>;
  [key: string]: unknown;
}

export interface TaskSource {
  previousNode: string;
  previousNodeOutput?: number;
  previousNodeRun?: number;
}

export interface NodeError {
  message?: string;
  description?: string | null;
  [key: string]: unknown;
}

/** One run of a node (n8n's ITaskData). */
export interface Task {
  startTime?: number;
  executionTime?: number;
  executionStatus?: string;
  source?: (TaskSource | null)[] | null;
  data?: Record<string, (Item[] | null)[]>;
  inputOverride?: Record<string, (Item[] | null)[]>;
  error?: NodeError | null;
}

export type RunData = Record<string, Task[]>;

/** One output of a run: its connection type, index, n8n's label, and items. */
export interface Output {
  type: string;
  index: number;
  label: string;
  items: Item[];
}

/** n8n's names of the outputs of nodes with more than one (If: true/false, Filter: Kept/Discarded). */
const OUTPUT_NAMES: [RegExp, string[]][] = [
  [/\.if$/, ["true", "false"]],
  [/\.filter$/, ["Kept", "Discarded"]],
  [/\.compareDatasets$/, ["In A only", "Same", "Different", "In B only"]],
  [/\.splitInBatches$/, ["done", "loop"]],
];

/** The label of output ``index`` of ``count`` outputs of a node of ``type`` (``onError`` adds the error output). */
export function outputLabel(type: string, index: number, count: number, onError?: unknown): string {
  if (onError === "continueErrorOutput" && index === count - 1) return "Error";
  const errorOutput = onError === "continueErrorOutput" ? 1 : 0;
  const named = OUTPUT_NAMES.find(([pattern]) => pattern.test(type))?.[1];
  if (named && named.length === count - errorOutput && named[index]) return named[index];
  if (onError === "continueErrorOutput" && count === 2) return "Success";
  return `Output ${index}`;
}

function listsOf(byType: Record<string, (Item[] | null)[]> | undefined, type: string, onError?: unknown): Output[] {
  const outputs: Output[] = [];
  for (const [connection, lists] of Object.entries(byType ?? {})) {
    (lists ?? []).forEach((items, index) => {
      const label = connection === "main" ? outputLabel(type, index, lists.length, onError) : connection;
      outputs.push({ type: connection, index, label, items: items ?? [] });
    });
  }
  return outputs;
}

/** The outputs of ``task``: each main output, and the output an AI sub-node gave (``ai_languageModel`` ...). */
export function outputsOf(task: Task | undefined, type = "", onError?: unknown): Output[] {
  return listsOf(task?.data, type, onError);
}

/** The input of ``task``: an AI sub-node's ``inputOverride``, else the output of the parent its ``source`` names. */
export function inputOf(runData: RunData, task: Task | undefined): Output[] {
  if (task?.inputOverride) return listsOf(task.inputOverride, "");
  const sources = (task?.source ?? []).filter((s): s is TaskSource => !!s?.previousNode);
  return sources.map((source, index) => {
    const parent = runData[source.previousNode]?.[source.previousNodeRun ?? 0];
    const items = parent?.data?.main?.[source.previousNodeOutput ?? 0] ?? [];
    return { type: "main", index, label: source.previousNode, items };
  });
}

/** The main parents of ``name`` in ``workflow``: ``[parent, output index]`` pairs, in connection order. */
export function parentsOf(workflow: Workflow, name: string): [string, number][] {
  const parents: [string, number][] = [];
  for (const [source, byType] of Object.entries(workflow.connections ?? {})) {
    (byType?.main ?? []).forEach((targets, output) => {
      if ((targets ?? []).some((t) => t.node === name)) parents.push([source, output]);
    });
  }
  return parents;
}

/** Before ``name`` ran (or without a task): the last output of its first parent that ran, or that parent's pinned
 * data, as n8n's input panel. */
export function parentOutput(workflow: Workflow, runData: RunData, name: string): Output[] {
  for (const [parent, output] of parentsOf(workflow, name)) {
    const runs = runData[parent];
    const pinned = pinnedOf(workflow, parent);
    if (runs?.length) {
      const items = runs[runs.length - 1]?.data?.main?.[output] ?? [];
      return [{ type: "main", index: 0, label: parent, items }];
    }
    if (pinned) return [{ type: "main", index: 0, label: parent, items: pinned }];
  }
  return [];
}

/** The table's columns: every key of the items' ``json``, in first-seen order. */
export function columns(items: Item[]): string[] {
  const seen = new Set<string>();
  for (const item of items) for (const key of Object.keys(item.json ?? {})) seen.add(key);
  return [...seen];
}

/** A table cell's text: strings as they are, nested values as JSON, ``null`` as ``null``. */
export function cell(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/** Every binary entry of ``items``: item index, property name and the entry. */
export function binaries(items: Item[]): { item: number; key: string; entry: BinaryEntry }[] {
  const found: { item: number; key: string; entry: BinaryEntry }[] = [];
  items.forEach((item, index) => {
    for (const [key, entry] of Object.entries(item.binary ?? {})) found.push({ item: index, key, entry });
  });
  return found;
}

/** The URL of a stored binary entry (``GET /rest/binary-data``), or a ``data:`` URL of inline base64 data. */
export function binaryUrl(entry: BinaryEntry, action: "view" | "download"): string {
  if (!entry.id) return `data:${entry.mimeType ?? "application/octet-stream"};base64,${entry.data ?? ""}`;
  const query = new URLSearchParams({ id: entry.id, action });
  if (entry.fileName) query.set("fileName", entry.fileName);
  if (entry.mimeType) query.set("mimeType", entry.mimeType);
  return `/rest/binary-data?${query.toString()}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** ``text`` with references to the node ``from`` renamed, as n8n's ``renameNodeInParameterValue``: ``$('from')``,
 * ``$node["from"]``, ``$node.from``, ``$items("from")``. */
export function renameInText(text: string, from: string, to: string): string {
  const name = escapeRegExp(from);
  return text
    .replace(new RegExp(`(\\$items\\(\\s*)(['"])${name}\\2(\\s*[,)])`, "g"), (_m, a: string, q: string, b: string) => `${a}${q}${to}${q}${b}`)
    .replace(new RegExp(`(\\$\\(\\s*)(['"\`])${name}\\2(\\s*\\))`, "g"), (_m, a: string, q: string, b: string) => `${a}${q}${to}${q}${b}`)
    .replace(new RegExp(`(\\$node\\[\\s*)(['"])${name}\\2(\\s*\\])`, "g"), (_m, a: string, q: string, b: string) => `${a}${q}${to}${q}${b}`)
    .replace(new RegExp(`\\$node\\.${name}(?![\\w$])`, "g"), () => (/^[A-Za-z_$][\w$]*$/.test(to) ? `$node.${to}` : `$node["${to}"]`));
}

function renameDeep(value: unknown, from: string, to: string): unknown {
  if (typeof value === "string") return value.startsWith("=") ? renameInText(value, from, to) : value;
  if (Array.isArray(value)) return value.map((each) => renameDeep(each, from, to));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renameDeep(v, from, to)]));
  }
  return value;
}

/** Rename the node ``from`` to ``to`` as n8n does: the node, its connections both ways, its pin data, and the
 * expressions of every node that name it. False when ``to`` is empty, taken, or the same. */
export function renameNode(workflow: Workflow, from: string, to: string): boolean {
  const target = to.trim();
  if (!target || target === from || workflow.nodes.some((n) => n.name === target)) return false;
  const node = workflow.nodes.find((n) => n.name === from);
  if (!node) return false;
  node.name = target;
  for (const each of workflow.nodes) if (each.parameters) each.parameters = renameDeep(each.parameters, from, target) as Record<string, unknown>;
  const connections = workflow.connections ?? {};
  if (connections[from]) {
    connections[target] = connections[from];
    delete connections[from];
  }
  for (const byType of Object.values(connections)) {
    for (const outputs of Object.values(byType ?? {})) {
      for (const targets of outputs ?? []) for (const t of targets ?? []) if (t.node === from) t.node = target;
    }
  }
  const pins = workflow.pinData as Record<string, unknown> | undefined;
  if (pins && from in pins) {
    pins[target] = pins[from];
    delete pins[from];
  }
  return true;
}

/** The pinned items of ``name`` (n8n's ``pinData``: a list of ``{json}``), or undefined. */
export function pinnedOf(workflow: Workflow, name: string): Item[] | undefined {
  const pins = workflow.pinData as Record<string, Item[]> | undefined;
  return pins?.[name];
}

/** Pin ``items`` (only their ``json``, as n8n pins) on ``name``; ``undefined`` unpins. */
export function setPinned(workflow: Workflow, name: string, items: Item[] | undefined): void {
  const pins = { ...((workflow.pinData as Record<string, Item[]> | undefined) ?? {}) };
  if (items === undefined) delete pins[name];
  else pins[name] = items.map((item) => ({ json: item.json ?? {} }));
  workflow.pinData = pins;
}

/** The items of pin data edited as JSON: an array of objects (each one item's json) or one object; or an error. */
export function parsePinJson(text: string): Item[] | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  if (!list.every((each) => each && typeof each === "object" && !Array.isArray(each))) {
    return "Pinned data must be an object or an array of objects";
  }
  return (list as Record<string, unknown>[]).map((json) => ({ json }));
}
