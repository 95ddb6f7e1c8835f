// n8n's descriptions and notices carry HTML (``<code>``, ``<a>``, ``<br>``); the editor shows them as plain text
// (never v-html): tags dropped, entities decoded by the browser's parser (which runs no script).

/** ``html`` as plain text. */
export function plainText(html: unknown): string {
  if (typeof html !== "string" || html === "") return "";
  if (!html.includes("<") && !html.includes("&")) return html;
  const parsed = new DOMParser().parseFromString(html.replace(/<br\s*\/?>/gi, "\n"), "text/html");
  return parsed.body.textContent ?? "";
}
