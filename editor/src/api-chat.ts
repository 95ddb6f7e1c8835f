// The chat panel's REST calls: POST /rest/workflows/<id>/chat (the workflow's chat trigger, as its test URL
// answers), read as it streams; the buttons' signed links of an approval question; the session's messages.
import { ApiError, call } from "./api";
import { isChunk, splitLines, type Chunk, type StoredMessage } from "./chat";

/** What a chat call answered: chunks that were streamed (given to ``onChunk`` as they came), or a JSON answer. */
export type ChatAnswer = { streamed: true } | { streamed: false; data: unknown };

const chatPath = (workflowId: string) => `/rest/workflows/${encodeURIComponent(workflowId)}/chat`;

/** POST ``body`` to ``path`` and read the answer as it arrives: n8n's chunk lines go to ``onChunk`` one by one;
 * any other answer is parsed whole at the end. */
export async function postChat(path: string, body: unknown, onChunk: (chunk: Chunk) => void): Promise<ChatAnswer> {
  const response = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new ApiError(response.status, await failure(response));
  const reader = response.body?.getReader();
  if (!reader) return { streamed: false, data: parse(await response.text()) };
  const decoder = new TextDecoder();
  let all = "";
  let buffer = "";
  let streamed: boolean | undefined;
  const take = (line: string): void => {
    const value = parse(line);
    if (streamed === undefined) streamed = isChunk(value);
    if (streamed && isChunk(value)) onChunk(value);
  };
  for (;;) {
    const part = await reader.read();
    if (part.done) break;
    const text = decoder.decode(part.value, { stream: true });
    all += text;
    if (streamed === false) continue;
    const { lines, rest } = splitLines(buffer + text);
    buffer = rest;
    lines.forEach(take);
  }
  all += decoder.decode();
  if (streamed !== false && buffer.trim()) take(buffer.trim());
  return streamed ? { streamed: true } : { streamed: false, data: parse(all) };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function failure(response: Response): Promise<string> {
  const data = parse(await response.text());
  if (data && typeof data === "object") {
    const record = data as { message?: unknown; detail?: unknown };
    if (typeof record.message === "string") return record.message;
    if (typeof record.detail === "string") return record.detail;
  }
  return typeof data === "string" && data ? data : `Error ${response.status}`;
}

export const chatApi = {
  /** Send a chat message to the workflow (n8n's ``{action: "sendMessage", sessionId, chatInput}``). */
  send: (workflowId: string, sessionId: string, chatInput: string, onChunk: (chunk: Chunk) => void) =>
    postChat(chatPath(workflowId), { action: "sendMessage", sessionId, chatInput }, onChunk),
  /** The session's messages kept in the workflow's memory. */
  previous: (workflowId: string, sessionId: string) =>
    call<{ data: StoredMessage[] }>("POST", chatPath(workflowId), { action: "loadPreviousSession", sessionId }).then(
      (r) => r.data,
    ),
};
