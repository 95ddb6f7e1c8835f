// Copy, cut and paste of nodes as n8n's clipboard JSON, so nodes move between Weft and n8n both ways.
// Copy is n8n's ``copyNodes``: ``{nodes, connections, pinData, meta}`` (connections among the copied nodes only,
// the pinned data of the copied nodes, the workflow's meta with an ``instanceId``), pretty-printed. Paste is n8n's
// ``importWorkflowData(…, "paste")``: every node gets a new id, a free name ("Set" → "Set1", references in
// expressions renamed along), a new webhookId (webhook and form triggers take it as their path, as n8n's), and
// the connections between the pasted nodes are kept.
import {
  connectionsAmong,
  renameConnections,
  renameReferences,
  uniqueNodeName,
  type Connections,
  type Workflow,
  type WorkflowNode,
} from "./graph";

export interface ClipboardData {
  nodes: WorkflowNode[];
  connections: Connections;
  pinData?: Record<string, unknown>;
  meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** n8n's ``UPDATE_WEBHOOK_ID_NODE_TYPES``: their ``path`` is their webhookId, renewed on paste. */
const WEBHOOK_PATH_TYPES = [
  "n8n-nodes-base.webhook",
  "n8n-nodes-base.formTrigger",
  "@n8n/n8n-nodes-langchain.mcpTrigger",
];
/** How far a pasted node moves when it would cover a node already there (n8n's grid is 20). */
export const PASTE_OFFSET = 40;
const INSTANCE_KEY = "weft.instanceId";

function uuid(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** This browser's ``instanceId`` for the clipboard's ``meta`` (n8n puts its instance's there). */
function instanceId(): string {
  let id = localStorage.getItem(INSTANCE_KEY);
  if (!id) localStorage.setItem(INSTANCE_KEY, (id = uuid().replace(/-/g, "")));
  return id;
}

/** The clipboard JSON of the nodes ``names`` of ``workflow`` (n8n's ``copyNodes``). */
export function copyNodes(workflow: Workflow, names: string[]): ClipboardData {
  const wanted = new Set(names);
  const nodes = workflow.nodes.filter((n) => wanted.has(n.name)).map((n) => structuredClone(n));
  const pins = (workflow.pinData ?? {}) as Record<string, unknown>;
  const pinData: Record<string, unknown> = {};
  for (const node of nodes) if (pins[node.name] !== undefined) pinData[node.name] = structuredClone(pins[node.name]);
  const meta = { ...((workflow.meta as Record<string, unknown> | undefined) ?? {}), instanceId: instanceId() };
  return { nodes, connections: connectionsAmong(workflow.connections, wanted), pinData, meta };
}

/** The text Ctrl+C puts on the clipboard. */
export function copyText(workflow: Workflow, names: string[]): string {
  return JSON.stringify(copyNodes(workflow, names), null, 2);
}

/** ``text`` as n8n clipboard (or workflow) JSON: an object with ``nodes`` and ``connections``; else ``null``. */
export function parseClipboard(text: string): ClipboardData | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return null;
  const data = parsed as Partial<ClipboardData>;
  if (!Array.isArray(data.nodes) || !data.connections || typeof data.connections !== "object") return null;
  if (!data.nodes.every((n) => n && typeof n === "object" && typeof n.type === "string")) return null;
  return data as ClipboardData;
}

/** Free names for the pasted nodes: old name → new name. */
function newNames(workflow: Workflow, nodes: WorkflowNode[]): Map<string, string> {
  const taken = new Set(workflow.nodes.map((n) => n.name));
  const renamed = new Map<string, string>();
  for (const node of nodes) {
    const name = uniqueNodeName(node.name || node.type.split(".").pop() || "Node", taken);
    taken.add(name);
    renamed.set(node.name, name);
  }
  return renamed;
}

/** Rename every reference at once (through placeholders, so "Set" → "Set1" and "Set1" → "Set2" do not chain). */
function renameAll(parameters: unknown, renamed: Map<string, string>): unknown {
  const changed = [...renamed].filter(([from, to]) => from !== to);
  let value = parameters;
  changed.forEach(([from], i) => (value = renameReferences(value, from, `\u0000weft-paste-${i}\u0000`)));
  changed.forEach(([, to], i) => (value = renameReferences(value, `\u0000weft-paste-${i}\u0000`, to)));
  return value;
}

function renewIds(node: WorkflowNode): void {
  node.id = uuid();
  if (typeof node.webhookId !== "string" || !node.webhookId) return;
  node.webhookId = uuid();
  if (!WEBHOOK_PATH_TYPES.includes(node.type)) return;
  const parameters = (node.parameters ??= {});
  const options = parameters.options as Record<string, unknown> | undefined;
  if (parameters.path) parameters.path = node.webhookId;
  else if (options?.path) options.path = node.webhookId;
}

/** Move the pasted nodes together while one of them would lie exactly on a node already there. */
function placeApart(workflow: Workflow, nodes: WorkflowNode[]): void {
  const occupied = new Set(workflow.nodes.map((n) => String(n.position ?? [0, 0])));
  let shift = 0;
  const at = (n: WorkflowNode, by: number): [number, number] => {
    const [x, y] = Array.isArray(n.position) ? n.position : [0, 0];
    return [x + by, y + by];
  };
  while (shift < 100 * PASTE_OFFSET && nodes.some((n) => occupied.has(String(at(n, shift))))) shift += PASTE_OFFSET;
  for (const node of nodes) node.position = at(node, shift);
}

/** Add the clipboard's nodes to ``workflow`` (n8n's paste); returns the names they got. */
export function pasteNodes(workflow: Workflow, data: ClipboardData): string[] {
  const nodes = structuredClone(data.nodes).filter((n) => typeof n.type === "string");
  const renamed = newNames(workflow, nodes);
  const names = new Set(nodes.map((n) => n.name));
  const connections = renameConnections(connectionsAmong(structuredClone(data.connections), names), renamed);
  for (const node of nodes) {
    node.name = renamed.get(node.name) ?? node.name;
    if (node.parameters) node.parameters = renameAll(node.parameters, renamed) as Record<string, unknown>;
    renewIds(node);
  }
  placeApart(workflow, nodes);
  workflow.nodes.push(...nodes);
  workflow.connections ??= {};
  for (const [source, byType] of Object.entries(connections)) workflow.connections[source] = byType;
  const pins = Object.entries(data.pinData ?? {}).filter(([name]) => renamed.has(name));
  if (pins.length) {
    const pinData = ((workflow.pinData as Record<string, unknown> | undefined) ??= {});
    for (const [name, items] of pins) pinData[renamed.get(name) as string] = structuredClone(items);
  }
  return nodes.map((n) => n.name);
}

export interface ClipboardHandlers {
  /** The text to copy, or ``null`` to let the browser copy (nothing selected on the canvas). */
  copy: () => string | null;
  /** As ``copy``, then remove what was copied. */
  cut: () => string | null;
  /** Paste the clipboard JSON; the paste is left to the browser when it is not n8n JSON. */
  paste: (data: ClipboardData) => void;
}

function typing(event: Event): boolean {
  const target = event.target as HTMLElement | null;
  if (target && (/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable)) return true;
  return Boolean(window.getSelection()?.toString());
}

/** Listen to the document's copy, cut and paste events (Ctrl/Cmd+C, X, V) for the canvas; returns the remover. */
export function listenClipboard(handlers: ClipboardHandlers): () => void {
  const onCopy = (event: ClipboardEvent, cut: boolean) => {
    if (typing(event) || !event.clipboardData) return;
    const text = cut ? handlers.cut() : handlers.copy();
    if (text === null) return;
    event.clipboardData.setData("text/plain", text);
    event.preventDefault();
  };
  const copy = (event: ClipboardEvent) => onCopy(event, false);
  const cut = (event: ClipboardEvent) => onCopy(event, true);
  const paste = (event: ClipboardEvent) => {
    if (typing(event)) return;
    const data = parseClipboard(event.clipboardData?.getData("text/plain") ?? "");
    if (!data) return;
    event.preventDefault();
    handlers.paste(data);
  };
  document.addEventListener("copy", copy);
  document.addEventListener("cut", cut);
  document.addEventListener("paste", paste);
  return () => {
    document.removeEventListener("copy", copy);
    document.removeEventListener("cut", cut);
    document.removeEventListener("paste", paste);
  };
}

/** What the canvas gives the clipboard. */
export interface ClipboardCanvas {
  doc: () => Workflow | null;
  readOnly: () => boolean;
  /** The names of the selected nodes. */
  selected: () => string[];
  /** Change the document as one undoable edit. */
  edit: (action: (w: Workflow) => void) => void;
  /** Delete the selected nodes (a cut). */
  remove: () => void;
  /** Select these nodes (the pasted ones, as n8n). */
  select: (names: string[]) => void;
}

/** Copy, cut and paste on the canvas; returns the remover. */
export function canvasClipboard(canvas: ClipboardCanvas): () => void {
  const copy = (): string | null => {
    const doc = canvas.doc();
    const names = canvas.selected();
    return doc && names.length ? copyText(doc, names) : null;
  };
  return listenClipboard({
    copy,
    cut: () => {
      const text = canvas.readOnly() ? null : copy();
      if (text !== null) canvas.remove();
      return text;
    },
    paste: (data) => {
      if (canvas.readOnly() || !canvas.doc()) return;
      let added: string[] = [];
      canvas.edit((w) => void (added = pasteNodes(w, data)));
      canvas.select(added);
    },
  });
}
