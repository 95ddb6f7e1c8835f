// The chat panel's pure helpers: which workflows chat, n8n's streamed chunks (begin/item/end JSON lines) into
// a reply's text, approval questions (n8n's "with-buttons" messages), sessions kept per workflow.
import type { Workflow } from "./graph";

export const CHAT_TRIGGER_TYPES = [
  "@n8n/n8n-nodes-langchain.chatTrigger",
  "@n8n/n8n-nodes-langchain.manualChatTrigger",
] as const;

/** Whether the workflow has an enabled chat trigger (the canvas then offers "Open chat"). */
export function hasChatTrigger(workflow: Workflow | null | undefined): boolean {
  return (workflow?.nodes ?? []).some(
    (node) => (CHAT_TRIGGER_TYPES as readonly string[]).includes(node.type) && !node.disabled,
  );
}

/** n8n's ``StructuredChunk``. */
export interface Chunk {
  type: "begin" | "item" | "end" | "error";
  content?: unknown;
  metadata?: Record<string, unknown>;
}

const CHUNK_TYPES = ["begin", "item", "end", "error"];

export function isChunk(value: unknown): value is Chunk {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return typeof record.type === "string" && CHUNK_TYPES.includes(record.type) && "metadata" in record;
}

/** The complete JSON lines of ``buffer`` and what is left after the last newline. */
export function splitLines(buffer: string): { lines: string[]; rest: string } {
  const parts = buffer.split("\n");
  const rest = parts.pop() ?? "";
  return { lines: parts.map((line) => line.trim()).filter(Boolean), rest };
}

/** A reply as its chunks build it: the text so far, and whether an error chunk came. */
export interface ReplyText {
  text: string;
  error: boolean;
}

/** The reply after ``chunk`` (as n8n's chat: items append, a new ``begin`` after text starts a paragraph). */
export function applyChunk(reply: ReplyText, chunk: Chunk): ReplyText {
  if (chunk.type === "item" && typeof chunk.content === "string") {
    return { ...reply, text: reply.text + chunk.content };
  }
  if (chunk.type === "begin" && reply.text) return { ...reply, text: reply.text + "\n\n" };
  if (chunk.type === "error") {
    const message = typeof chunk.content === "string" && chunk.content ? chunk.content : "Error in workflow";
    return { text: reply.text + (reply.text ? "\n" : "") + message, error: true };
  }
  return reply;
}

/** A button of an approval question: its signed link resumes the waiting execution. */
export interface ApprovalButton {
  text: string;
  link: string;
  type?: string;
}

/** n8n's ``{type: "with-buttons", text, blockUserInput, buttons}`` (Weft adds the gated tool call). */
export interface Approval {
  text: string;
  buttons: ApprovalButton[];
  blockUserInput: boolean;
  tool?: { name?: string; parameters?: unknown };
}

/** The text of a non-streamed answer (``{output}``, ``{text}``, a list of those, or anything else as JSON). */
export function answerText(data: unknown): string {
  const first: unknown = Array.isArray(data) ? data[0] : data;
  if (first && typeof first === "object") {
    const record = first as Record<string, unknown>;
    const value = record.output !== undefined ? record.output : record.text;
    if (value !== undefined) return typeof value === "string" ? value : JSON.stringify(value);
    return JSON.stringify(first);
  }
  return first === undefined || first === null ? "" : String(first);
}

/** The approval question of an answer (``{output, message: {type: "with-buttons", …}}``), if it asks one. */
export function approvalOf(data: unknown): Approval | null {
  if (!data || typeof data !== "object" || Array.isArray(data)) return null;
  const message = (data as Record<string, unknown>).message as Record<string, unknown> | undefined;
  if (!message || message.type !== "with-buttons" || !Array.isArray(message.buttons)) return null;
  return {
    text: typeof message.text === "string" ? message.text : "",
    buttons: (message.buttons as ApprovalButton[]).filter((b) => typeof b?.link === "string"),
    blockUserInput: Boolean(message.blockUserInput),
    tool: message.tool as Approval["tool"],
  };
}

/** The question a waiting execution asked in a streamed chat: the streamed chunks carry only its text, the
 * waiting node's output keeps the whole message (``sendMessage``, with its buttons). */
export function waitingApproval(runData: Record<string, { executionStatus?: string; data?: unknown }[]> | undefined): Approval | null {
  for (const tasks of Object.values(runData ?? {})) {
    const last = tasks[tasks.length - 1];
    if (last?.executionStatus !== "waiting" || !last.data || typeof last.data !== "object") continue;
    for (const outputs of Object.values(last.data as Record<string, unknown[][] | null>)) {
      const first = outputs?.[0]?.[0] as { sendMessage?: unknown } | undefined;
      const approval = approvalOf({ message: first?.sendMessage });
      if (approval) return approval;
    }
  }
  return null;
}

/** The chat session a run answered: the ``sessionId`` of its chat trigger's item. */
export function runSession(runData: Record<string, { data?: unknown }[]> | undefined): string | null {
  for (const tasks of Object.values(runData ?? {})) {
    const main = (tasks[0]?.data as { main?: unknown[][] } | undefined)?.main;
    const item = main?.[0]?.[0] as { json?: { sessionId?: unknown; action?: unknown } } | undefined;
    if (typeof item?.json?.sessionId === "string" && item.json.action === "sendMessage") return item.json.sessionId;
  }
  return null;
}

/** A button's link on this origin (the server signs absolute links with its public URL). */
export function sameOrigin(link: string): string {
  const url = new URL(link, window.location.href);
  return url.pathname + url.search;
}

/** Where a written reply to a waiting question goes: the question's link without ``approved`` (n8n: the user's
 * message is the feedback). */
export function replyLink(approval: Approval): string | null {
  const first = approval.buttons[0];
  if (!first) return null;
  const url = new URL(first.link, window.location.href);
  url.searchParams.delete("approved");
  return url.pathname + url.search;
}

/** The body of a button's resume call: ``{}``, or for an approval with edited tool arguments (JSON text)
 * ``{toolParameters}`` (the edited call runs); ``error`` when the edit is not JSON. */
export function approvalBody(button: ApprovalButton, edited?: string): { body: Record<string, unknown> } | { error: string } {
  const approving = new URL(button.link, window.location.href).searchParams.get("approved") === "true";
  if (edited === undefined || !approving) return { body: {} };
  try {
    return { body: { toolParameters: JSON.parse(edited) as unknown } };
  } catch (e) {
    return { error: `The tool's arguments are not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** A message of a stored session, as ``loadPreviousSession`` lists it (LangChain's serialized messages). */
export interface StoredMessage {
  id?: string[];
  kwargs?: { content?: unknown };
}

export interface ChatMessage {
  id: number;
  sender: "user" | "bot";
  text: string;
  error?: boolean;
  streaming?: boolean;
  approval?: Approval;
  answered?: boolean;
}

/** The session's stored messages as chat messages (human messages from the user, the rest from the bot). */
export function fromStored(stored: StoredMessage[], nextId: () => number): ChatMessage[] {
  return stored.map((message) => ({
    id: nextId(),
    sender: (message.id ?? []).includes("HumanMessage") ? "user" : "bot",
    text: typeof message.kwargs?.content === "string" ? message.kwargs.content : "",
  }));
}

const SESSION_PREFIX = "weft-editor-chat-session:";

/** A random session id (``getRandomValues``: ``randomUUID`` needs a secure context, plain http has none). */
export function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The workflow's current session (kept in this browser across reloads), a new one the first time. */
export function currentSession(workflowId: string): string {
  const key = SESSION_PREFIX + workflowId;
  const found = window.localStorage.getItem(key);
  if (found) return found;
  return startSession(workflowId);
}

/** "New session": a fresh session id (and so a fresh memory) for the workflow. */
export function startSession(workflowId: string): string {
  const id = newSessionId();
  window.localStorage.setItem(SESSION_PREFIX + workflowId, id);
  return id;
}
