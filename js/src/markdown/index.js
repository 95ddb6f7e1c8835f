// Showdown (markdown → HTML) and node-html-markdown (HTML → markdown), the libraries n8n's Markdown node uses.
// node-html-markdown reads process.env.LOG_PERF; the sandbox has no process.
const shim = typeof process === 'undefined';
if (shim) globalThis.process = { env: {} };
import showdown from 'showdown';
import { NodeHtmlMarkdown } from 'node-html-markdown';
globalThis.__weftMarkdown = { showdown, NodeHtmlMarkdown };
