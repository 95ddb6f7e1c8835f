// n8n workflow JSON <-> the canvas. The workflow JSON is the document: every edit changes only what it edits
// (a dragged node's position, one connection, a deleted node and its connections) and keeps every other field.

export interface WorkflowNode {
  name: string;
  type: string;
  typeVersion?: number;
  position?: [number, number];
  parameters?: Record<string, unknown>;
  disabled?: boolean;
  [key: string]: unknown;
}

export interface Target {
  node: string;
  type: string;
  index: number;
}

export type Connections = Record<string, Record<string, (Target[] | null)[]>>;

export interface Workflow {
  id?: string;
  name: string;
  nodes: WorkflowNode[];
  connections: Connections;
  [key: string]: unknown;
}

export interface HandleSpec {
  id: string;
  type: string;
  index: number;
}

export interface NodeStatus {
  status: "success" | "error" | "running";
  items: number;
  error?: string;
}

export interface NodeData {
  name: string;
  type: string;
  disabled: boolean;
  sub: boolean;
  trigger: boolean;
  inputs: HandleSpec[];
  outputs: HandleSpec[];
  status?: NodeStatus;
  content?: string;
  width?: number;
  height?: number;
  color?: number;
}

export interface FlowNode {
  id: string;
  type: "n8n" | "sticky";
  position: { x: number; y: number };
  data: NodeData;
  zIndex?: number;
  draggable?: boolean;
}

export interface FlowEdge {
  id: string;
  source: string;
  target: string;
  sourceHandle: string;
  targetHandle: string;
  class: string;
  data: { type: string };
}

export const STICKY = "n8n-nodes-base.stickyNote";
/** The inputs n8n's AI Agent offers below it. */
const AGENT_INPUTS = ["ai_languageModel", "ai_memory", "ai_tool", "ai_outputParser"];
const CHAIN_INPUTS = ["ai_languageModel", "ai_outputParser"];
const TRIGGERS = /(Trigger|\.webhook|\.start|\.cron|\.interval|\.n8nTrigger)$/i;
const SUB_NODE_OUTPUTS: [RegExp, string][] = [
  [/\.(lm\w*|weft\.lmChat\w*)$|^weft\.lmChat/i, "ai_languageModel"],
  [/\.memory\w*$/i, "ai_memory"],
  [/\.outputParser\w*$/i, "ai_outputParser"],
  [/\.embeddings\w*$/i, "ai_embedding"],
  [/\.tool\w*$|Tool$/, "ai_tool"],
];

export function handleId(direction: "in" | "out", type: string, index: number): string {
  return `${direction}-${type}-${index}`;
}

export function edgeId(source: string, type: string, outIndex: number, target: Target): string {
  return JSON.stringify([source, type, outIndex, target.node, target.type, target.index]);
}

function parseEdgeId(id: string): [string, string, number, Target] {
  const [source, type, outIndex, node, targetType, index] = JSON.parse(id) as [
    string,
    string,
    number,
    string,
    string,
    number,
  ];
  return [source, type, outIndex, { node, type: targetType, index }];
}

interface Ports {
  inputs: Map<string, number>;
  outputs: Map<string, number>;
}

function bump(ports: Map<string, number>, type: string, index: number): void {
  ports.set(type, Math.max(ports.get(type) ?? 0, index + 1));
}

/** The connection types and counts every node uses, from the connections. */
function usedPorts(workflow: Workflow): Map<string, Ports> {
  const ports = new Map<string, Ports>();
  const of = (name: string): Ports => {
    let found = ports.get(name);
    if (!found) ports.set(name, (found = { inputs: new Map(), outputs: new Map() }));
    return found;
  };
  for (const [source, byType] of Object.entries(workflow.connections ?? {})) {
    for (const [type, outputs] of Object.entries(byType ?? {})) {
      (outputs ?? []).forEach((targets, outIndex) => {
        if (!targets || targets.length === 0) return;
        bump(of(source).outputs, type, outIndex);
        for (const target of targets) bump(of(target.node).inputs, target.type ?? type, target.index ?? 0);
      });
    }
  }
  return ports;
}

function subNodeOutput(type: string): string | undefined {
  if (/\.agent\w*$|\.chain\w*$/i.test(type)) return undefined;
  return SUB_NODE_OUTPUTS.find(([pattern]) => pattern.test(type))?.[1];
}

/** n8n's order of a node's connection types: main first, then the agent's Model, Memory, Tool, Output Parser. */
function rank(type: string): number {
  if (type === "main") return -1;
  const at = AGENT_INPUTS.indexOf(type);
  return at >= 0 ? at : AGENT_INPUTS.length;
}

function handles(direction: "in" | "out", used: Map<string, number>, defaults: string[]): HandleSpec[] {
  const counts = new Map(used);
  for (const type of defaults) if (!counts.has(type)) counts.set(type, 1);
  const specs: HandleSpec[] = [];
  const order = [...counts.keys()].sort((a, b) => rank(a) - rank(b));
  for (const type of order) {
    for (let index = 0; index < (counts.get(type) ?? 0); index++) {
      specs.push({ id: handleId(direction, type, index), type, index });
    }
  }
  return specs;
}

function aiInputs(type: string): string[] {
  if (/\.agent(Tool)?$/i.test(type)) return AGENT_INPUTS;
  if (/\.chain\w*$/i.test(type)) return CHAIN_INPUTS;
  return [];
}

function nodeData(node: WorkflowNode, ports: Ports | undefined): NodeData {
  const usedIn = ports?.inputs ?? new Map<string, number>();
  const usedOut = ports?.outputs ?? new Map<string, number>();
  const subOutput = subNodeOutput(node.type);
  const mainUsed = usedIn.has("main") || usedOut.has("main");
  const sub = subOutput !== undefined && !mainUsed;
  const trigger = TRIGGERS.test(node.type);
  const inDefaults = sub || trigger ? [] : ["main", ...aiInputs(node.type)];
  const outDefaults = sub ? [subOutput] : ["main"];
  return {
    name: node.name,
    type: node.type,
    disabled: node.disabled === true,
    sub,
    trigger,
    inputs: handles("in", usedIn, inDefaults),
    outputs: handles("out", usedOut, outDefaults),
  };
}

function stickyData(node: WorkflowNode): NodeData {
  const parameters = node.parameters ?? {};
  const number = (value: unknown, fallback: number): number => (typeof value === "number" ? value : fallback);
  return {
    name: node.name,
    type: node.type,
    disabled: false,
    sub: false,
    trigger: false,
    inputs: [],
    outputs: [],
    content: typeof parameters.content === "string" ? parameters.content : "",
    width: number(parameters.width, 240),
    height: number(parameters.height, 160),
    color: number(parameters.color, 1),
  };
}

/** The canvas of ``workflow``: one node per workflow node, one edge per connection. */
export function toFlow(workflow: Workflow, statuses: Record<string, NodeStatus> = {}, readOnly = false) {
  const ports = usedPorts(workflow);
  const nodes: FlowNode[] = (workflow.nodes ?? []).map((node) => {
    const [x, y] = Array.isArray(node.position) ? node.position : [0, 0];
    const isSticky = node.type === STICKY;
    const data = isSticky ? stickyData(node) : nodeData(node, ports.get(node.name));
    if (statuses[node.name]) data.status = statuses[node.name];
    return {
      id: node.name,
      type: isSticky ? "sticky" : "n8n",
      position: { x, y },
      data,
      zIndex: isSticky ? -1 : 0,
      draggable: !readOnly,
    };
  });
  const names = new Set(nodes.map((n) => n.id));
  const edges: FlowEdge[] = [];
  for (const [source, byType] of Object.entries(workflow.connections ?? {})) {
    if (!names.has(source)) continue;
    for (const [type, outputs] of Object.entries(byType ?? {})) {
      (outputs ?? []).forEach((targets, outIndex) => {
        for (const target of targets ?? []) {
          if (!names.has(target.node)) continue;
          const targetType = target.type ?? type;
          edges.push({
            id: edgeId(source, type, outIndex, target),
            source,
            target: target.node,
            sourceHandle: handleId("out", type, outIndex),
            targetHandle: handleId("in", targetType, target.index ?? 0),
            class: type === "main" ? "edge-main" : "edge-ai",
            data: { type },
          });
        }
      });
    }
  }
  return { nodes, edges };
}

/** Set the position of the node ``name`` (n8n's ``[x, y]``); false when it did not move (a click, not a drag). */
export function moveNode(workflow: Workflow, name: string, x: number, y: number): boolean {
  const node = workflow.nodes.find((n) => n.name === name);
  if (!node) return false;
  const [oldX, oldY] = Array.isArray(node.position) ? node.position : [0, 0];
  if (Math.abs(oldX - x) < 0.5 && Math.abs(oldY - y) < 0.5) return false;
  node.position = [Math.round(x), Math.round(y)];
  return true;
}

function parseHandle(handle: string | null | undefined): [string, number] | undefined {
  const match = /^(?:in|out)-(.+)-(\d+)$/.exec(handle ?? "");
  return match ? [match[1], Number(match[2])] : undefined;
}

/** Connect an output handle of ``source`` to an input handle of ``target``; false when the types differ. */
export function connect(
  workflow: Workflow,
  source: string,
  sourceHandle: string | null | undefined,
  target: string,
  targetHandle: string | null | undefined,
): boolean {
  const out = parseHandle(sourceHandle);
  const into = parseHandle(targetHandle);
  if (!out || !into || out[0] !== into[0] || source === target) return false;
  const [type, outIndex] = out;
  workflow.connections ??= {};
  const byType = (workflow.connections[source] ??= {});
  const outputs = (byType[type] ??= []);
  while (outputs.length <= outIndex) outputs.push([]);
  const targets = (outputs[outIndex] ??= []);
  if (targets.some((t) => t.node === target && t.type === into[0] && t.index === into[1])) return false;
  targets.push({ node: target, type: into[0], index: into[1] });
  return true;
}

/** Remove the connection of the edge ``id``. */
export function disconnect(workflow: Workflow, id: string): void {
  const [source, type, outIndex, target] = parseEdgeId(id);
  const targets = workflow.connections?.[source]?.[type]?.[outIndex];
  if (!targets) return;
  const at = targets.findIndex((t) => t.node === target.node && t.type === target.type && t.index === target.index);
  if (at >= 0) targets.splice(at, 1);
}

/** Delete the node ``name`` and every connection from or to it. */
export function removeNode(workflow: Workflow, name: string): void {
  workflow.nodes = workflow.nodes.filter((n) => n.name !== name);
  if (!workflow.connections) return;
  delete workflow.connections[name];
  for (const byType of Object.values(workflow.connections)) {
    for (const outputs of Object.values(byType ?? {})) {
      (outputs ?? []).forEach((targets, i) => {
        if (targets) outputs[i] = targets.filter((t) => t.node !== name);
      });
    }
  }
}

/** Per-node status and item counts from an execution's ``resultData.runData``. */
export function statusesOf(
  runData: Record<string, { executionStatus?: string; error?: { message?: string } | null; data?: Record<string, (unknown[] | null)[]> }[]>,
): Record<string, NodeStatus> {
  const statuses: Record<string, NodeStatus> = {};
  for (const [name, runs] of Object.entries(runData ?? {})) {
    let items = 0;
    let error: string | undefined;
    for (const run of runs ?? []) {
      for (const outputs of Object.values(run.data ?? {})) for (const out of outputs ?? []) items += out?.length ?? 0;
      if (run.error || run.executionStatus === "error") error = run.error?.message ?? "error";
    }
    statuses[name] = { status: error ? "error" : "success", items, error };
  }
  return statuses;
}

/** n8n's ``uniqueNodeName``: ``name`` when free, else "Set" → "Set1" → "Set2" (a trailing number is the first
 * one tried: "Set3" → "Set3", "Set4", …) and "123" → "123-1". */
export function uniqueNodeName(name: string, taken: Set<string>): string {
  if (!taken.has(name)) return name;
  const allDigits = /^\d+$/.test(name);
  const match = allDigits ? null : /^(.*\D)(\d*)$/.exec(name);
  const base = match ? match[1] : name;
  let index = match && match[2] ? Number(match[2]) : 1;
  let unique = base;
  while (taken.has(unique)) unique = `${base}${allDigits ? "-" : ""}${index++}`;
  return unique;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** ``value`` (a node's parameters) with the expressions' references to the node ``from`` renamed to ``to``, as
 * n8n's ``Workflow.renameNode`` does: ``$('from')``, ``$("from")``, ``$node["from"]``, ``$node['from']``,
 * ``$node.from``, ``$items("from"``. */
export function renameReferences(value: unknown, from: string, to: string): unknown {
  if (typeof value === "string") {
    if (!value.startsWith("=") || !value.includes(from)) return value;
    const name = escapeRegExp(from);
    const quoted = (q: string) => to.replace(/\\/g, "\\\\").replace(new RegExp(q, "g"), `\\${q}`);
    let out = value;
    for (const q of ["'", '"']) {
      const named = `${q}${quoted(q)}${q}`;
      out = out
        .replace(new RegExp(`\\$\\(${q}${name}${q}\\)`, "g"), () => `$(${named})`)
        .replace(new RegExp(`\\$node\\[${q}${name}${q}\\]`, "g"), () => `$node[${named}]`)
        .replace(new RegExp(`\\$items\\(${q}${name}${q}`, "g"), () => `$items(${named}`);
    }
    if (/^[A-Za-z_$][\w$]*$/.test(from)) {
      const dotted = /^[A-Za-z_$][\w$]*$/.test(to) ? `$node.${to}` : `$node[${JSON.stringify(to)}]`;
      out = out.replace(new RegExp(`\\$node\\.${name}\\b`, "g"), () => dotted);
    }
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => renameReferences(v, from, to));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renameReferences(v, from, to)]));
  }
  return value;
}

/** ``connections`` of the nodes in ``names`` to nodes in ``names`` only (n8n's ``getConnectionsForNodes``). */
export function connectionsAmong(connections: Connections, names: Set<string>): Connections {
  const kept: Connections = {};
  for (const [source, byType] of Object.entries(connections ?? {})) {
    if (!names.has(source)) continue;
    const filtered: Record<string, (Target[] | null)[]> = {};
    for (const [type, outputs] of Object.entries(byType ?? {})) {
      filtered[type] = (outputs ?? []).map((targets) => (targets ?? []).filter((t) => names.has(t.node)));
    }
    if (Object.keys(filtered).length) kept[source] = filtered;
  }
  return kept;
}

/** ``connections`` with every node name mapped through ``renamed`` (sources and targets). */
export function renameConnections(connections: Connections, renamed: Map<string, string>): Connections {
  const out: Connections = {};
  for (const [source, byType] of Object.entries(connections ?? {})) {
    const outputs: Record<string, (Target[] | null)[]> = {};
    for (const [type, list] of Object.entries(byType ?? {})) {
      outputs[type] = (list ?? []).map((targets) =>
        targets === null ? null : targets.map((t) => ({ ...t, node: renamed.get(t.node) ?? t.node })),
      );
    }
    out[renamed.get(source) ?? source] = outputs;
  }
  return out;
}
