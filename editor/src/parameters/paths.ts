// Value paths of node parameters as n8n writes them (``options.timeout``, ``headerParameters.parameters[0].name``),
// read like lodash's ``get``; a path's display test id is the same string.

/** The parts of ``path``: ``a.b[0].c`` -> ``["a", "b", "0", "c"]``. */
export function pathParts(path: string): string[] {
  return path
    .replace(/\[(\w+)\]/g, ".$1")
    .split(".")
    .filter((part) => part !== "");
}

/** The value at ``path`` inside ``value`` (``undefined`` when any step is missing), as lodash ``get``. */
export function getPath(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const part of pathParts(path)) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** ``parent`` joined with a child: a property name (``parent.name``) or an index (``parent[0]``). */
export function childPath(parent: string, child: string | number): string {
  if (typeof child === "number") return `${parent}[${child}]`;
  return parent ? `${parent}.${child}` : child;
}

/** A copy of ``object`` with ``key`` set to ``value``, or removed when ``value`` is ``undefined``. */
export function withKey(object: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = { ...object };
  if (value === undefined) delete copy[key];
  else copy[key] = value;
  return copy;
}

/** A copy of ``list`` with entry ``index`` replaced by ``value``, or removed when ``value`` is ``undefined``. */
export function withIndex<T>(list: T[], index: number, value: T | undefined): T[] {
  const copy = [...list];
  if (value === undefined) copy.splice(index, 1);
  else copy[index] = value;
  return copy;
}

/** A deep copy of JSON data (a default before it becomes a node's parameter). */
export function copyJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** A plain object, or ``{}`` for anything else (a missing or malformed collection value). */
export function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
