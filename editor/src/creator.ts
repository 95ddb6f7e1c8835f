// What the node creator adds: a node of the chosen type with its default parameters and latest typeVersion, at a
// free position, connected after the selected node (or into an agent's Model/Memory/Tool/Parser input).
import type { NodeTypeInfo } from "./api";
import { STICKY, connect, handleId, type Workflow, type WorkflowNode } from "./graph";

/** Where the creator was opened from: the canvas ("main"), or an AI input of a node (``kind`` ai_languageModel…). */
export interface Anchor {
  node?: string;
  kind: string;
}

export interface Group {
  title: string;
  types: NodeTypeInfo[];
}

const STEP_X = 220;
const STEP_Y = 140;
const WEBHOOK_TYPES = /\.(webhook|formTrigger|chatTrigger|mcpTrigger|wait)$/;
const RESPOND = "n8n-nodes-base.respondToWebhook";

export const isTrigger = (t: NodeTypeInfo) => t.group.includes("trigger");
export const isSubNode = (t: NodeTypeInfo) => t.outputs.length > 0 && !t.outputs.includes("main");

/** The types offered for ``anchor`` matching ``query``, grouped as n8n's creator: Triggers, Core, AI sub-nodes. */
export function groups(types: NodeTypeInfo[], anchor: Anchor, query: string): Group[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (t: NodeTypeInfo) => {
    const text = `${t.displayName} ${t.name} ${t.description}`.toLowerCase();
    return words.every((w) => text.includes(w));
  };
  const offered = types.filter((t) => t.name !== STICKY && matches(t));
  if (anchor.kind !== "main") {
    return [{ title: "AI sub-nodes", types: offered.filter((t) => t.outputs.includes(anchor.kind)) }];
  }
  return [
    { title: "Triggers", types: offered.filter(isTrigger) },
    { title: "Core", types: offered.filter((t) => !isTrigger(t) && !isSubNode(t)) },
    { title: "AI sub-nodes", types: offered.filter((t) => !isTrigger(t) && isSubNode(t)) },
  ].filter((g) => g.types.length > 0);
}

/** n8n's unique node names: "Edit Fields", then "Edit Fields1", "Edit Fields2"… */
export function uniqueName(workflow: Workflow, base: string): string {
  const taken = new Set(workflow.nodes.map((n) => n.name));
  if (!taken.has(base)) return base;
  let i = 1;
  while (taken.has(`${base}${i}`)) i++;
  return `${base}${i}`;
}

function positionOf(node: WorkflowNode | undefined): [number, number] {
  return node && Array.isArray(node.position) ? node.position : [0, 0];
}

/** The first position from ``[x, y]`` downwards that no node occupies. */
function freePosition(workflow: Workflow, [x, y]: [number, number]): [number, number] {
  const busy = (px: number, py: number) =>
    workflow.nodes.some((n) => {
      const [nx, ny] = positionOf(n);
      return Math.abs(nx - px) < STEP_X * 0.8 && Math.abs(ny - py) < STEP_Y * 0.7;
    });
  while (busy(x, y)) y += STEP_Y;
  return [x, y];
}

function startPosition(workflow: Workflow, after: WorkflowNode | undefined, anchor: Anchor): [number, number] {
  if (anchor.kind !== "main") {
    const [x, y] = positionOf(workflow.nodes.find((n) => n.name === anchor.node));
    return [x, y + STEP_Y * 1.5];
  }
  if (after) {
    const [x, y] = positionOf(after);
    return [x + STEP_X, y];
  }
  const placed = workflow.nodes.filter((n) => n.type !== STICKY).map(positionOf);
  if (!placed.length) return [0, 0];
  return [Math.max(...placed.map(([x]) => x)) + STEP_X, Math.min(...placed.map(([, y]) => y))];
}

/** The nodes upstream of ``name`` through main connections. */
function upstream(workflow: Workflow, name: string): Set<string> {
  const found = new Set<string>();
  const walk = (target: string) => {
    for (const [source, byType] of Object.entries(workflow.connections ?? {})) {
      const feeds = (byType.main ?? []).some((targets) => (targets ?? []).some((t) => t.node === target));
      if (feeds && !found.has(source)) {
        found.add(source);
        walk(source);
      }
    }
  };
  walk(name);
  return found;
}

/** A Respond to Webhook node answers only for a Webhook set to respond "Using 'Respond to Webhook' Node". */
function respondFromNode(workflow: Workflow, name: string): void {
  const sources = upstream(workflow, name);
  for (const node of workflow.nodes) {
    const parameters = node.parameters ?? {};
    if (sources.has(node.name) && node.type === "n8n-nodes-base.webhook" && parameters.responseMode !== "responseNode")
      node.parameters = { ...parameters, responseMode: "responseNode" };
  }
}

/** Add a node of ``type`` to ``workflow``, after the node ``selected`` when it has a main output (``typeOf`` tells
 * a node's type); returns its name. */
export function addNode(
  workflow: Workflow,
  type: NodeTypeInfo,
  anchor: Anchor,
  selected: string | undefined,
  typeOf: (name: string) => NodeTypeInfo | undefined,
): string {
  const chosen = anchor.kind === "main" ? workflow.nodes.find((n) => n.name === selected) : undefined;
  const after = chosen && (typeOf(chosen.type)?.outputs ?? ["main"]).includes("main") ? chosen : undefined;
  const name = uniqueName(workflow, type.displayName.replace(/ \([^)]*\)$/, "")); // n8n: "Edit Fields (Set)" → "Edit Fields"
  const node: WorkflowNode = {
    parameters: JSON.parse(JSON.stringify(type.defaults)) as Record<string, unknown>,
    type: type.name,
    typeVersion: type.defaultVersion,
    position: freePosition(workflow, startPosition(workflow, after, anchor)),
    id: crypto.randomUUID(),
    name,
  };
  if (WEBHOOK_TYPES.test(type.name)) {
    node.webhookId = crypto.randomUUID(); // as n8n: a webhook's path starts as its id
    if (node.parameters && node.parameters.path === "") node.parameters.path = node.webhookId;
  }
  workflow.nodes.push(node);
  if (anchor.kind !== "main" && anchor.node) {
    connect(workflow, name, handleId("out", anchor.kind, 0), anchor.node, handleId("in", anchor.kind, 0));
  } else if (after && type.inputs.includes("main")) {
    connect(workflow, after.name, handleId("out", "main", 0), name, handleId("in", "main", 0));
  }
  if (type.name === RESPOND) respondFromNode(workflow, name);
  return name;
}
