// Expressions as n8n stores them: a string value starting with ``=``. Switching a parameter between Fixed and
// Expression converts its value as n8n's editor does (ParameterInputFull: addExpression / removeExpression).

/** Whether ``value`` is an expression (``"=..."``, or a resource locator whose value is one). */
export function isExpression(value: unknown): boolean {
  if (typeof value === "string") return value.charAt(0) === "=";
  if (isLocator(value)) return typeof value.value === "string" && value.value.charAt(0) === "=";
  return false;
}

export interface Locator {
  __rl: true;
  value: unknown;
  mode: string;
  [key: string]: unknown;
}

/** n8n's resource locator value: ``{__rl: true, value, mode}``. */
export function isLocator(value: unknown): value is Locator {
  return value !== null && typeof value === "object" && (value as { __rl?: unknown }).__rl === true;
}

const LOCATOR_TYPES = new Set(["resourceLocator", "workflowSelector"]);

/** The expression a fixed ``value`` of a ``type`` parameter becomes (n8n: ``x`` -> ``=x``, ``3`` -> ``={{ 3 }}``). */
export function toExpression(value: unknown, type: string): unknown {
  if (LOCATOR_TYPES.has(type)) {
    return isLocator(value)
      ? { __rl: true, value: `=${String(value.value)}`, mode: value.mode }
      : { __rl: true, value: `=${String(value ?? "")}`, mode: "" };
  }
  const isNumber = type === "number";
  if (isNumber && (!value || value === "[Object: null]")) return "={{ 0 }}";
  if (type === "multiOptions") return `={{ ${JSON.stringify(value)} }}`;
  if (isNumber || type === "boolean" || typeof value !== "string") return `={{ ${String(value)} }}`;
  return `=${value}`;
}

/** The fixed value an expression becomes (n8n: strings and JSON lose the ``=``; numbers and booleans take the
 * expression's evaluated value, else the default). */
export function fromExpression(value: unknown, evaluated: unknown, type: string, fallback: unknown): unknown {
  if (type === "multiOptions" && typeof evaluated === "string") return evaluated.split(",");
  if (LOCATOR_TYPES.has(type) && isLocator(value)) {
    return { __rl: true, value: typeof value.value === "string" ? value.value.replace(/^=+/, "") : "", mode: value.mode };
  }
  if (type === "string" || (type === "json" && typeof value === "string")) {
    return value ? String(value).replace(/^=+/, "") : null;
  }
  if (type === "number" || type === "boolean") return evaluated ?? fallback;
  return evaluated === undefined ? null : evaluated;
}
