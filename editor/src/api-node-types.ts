// One node type's description (n8n's INodeTypeDescription: its properties drive the parameter forms), from
// ``GET /rest/node-types/{type}?version=``; cached per type and version for the editor's lifetime.
import { call } from "./api";

/** n8n's displayOptions: show/hide conditions on sibling parameters (and ``@version``). */
export interface DisplayOptions {
  show?: Record<string, unknown[]>;
  hide?: Record<string, unknown[]>;
}

export interface PropertyOption {
  name: string;
  value?: unknown;
  description?: string;
  displayName?: string;
  /** An option of an options list may show only for some values (HTTP Request's WebDAV methods). */
  displayOptions?: DisplayOptions;
  /** collection / fixedCollection options carry properties of their own. */
  values?: NodeProperty[];
  type?: string;
  [key: string]: unknown;
}

/** n8n's INodeProperties (the fields the editor reads; the rest passes through). */
export interface NodeProperty {
  name: string;
  displayName: string;
  type: string;
  default?: unknown;
  description?: string;
  hint?: string;
  placeholder?: string;
  required?: boolean;
  noDataExpression?: boolean;
  displayOptions?: DisplayOptions;
  options?: PropertyOption[] | NodeProperty[];
  typeOptions?: Record<string, unknown>;
  modes?: NodeProperty[];
  [key: string]: unknown;
}

export interface NodeTypeDescription {
  name: string;
  displayName: string;
  description?: string;
  version: number | number[];
  versions?: number[];
  defaults?: Record<string, unknown>;
  group?: string[];
  inputs?: unknown;
  outputs?: unknown;
  subtitle?: string;
  credentials?: { name: string; required?: boolean; displayOptions?: DisplayOptions }[];
  properties: NodeProperty[];
}

const cache = new Map<string, Promise<NodeTypeDescription>>();

/** The description of ``type`` at ``version`` (cached; a failed fetch is not cached). */
export function nodeTypeDescription(type: string, version?: number): Promise<NodeTypeDescription> {
  const key = `${type}@${version ?? ""}`;
  let found = cache.get(key);
  if (!found) {
    const query = version === undefined ? "" : `?version=${encodeURIComponent(String(version))}`;
    found = call<{ data: NodeTypeDescription }>("GET", `/rest/node-types/${encodeURIComponent(type)}${query}`).then(
      (answer) => answer.data,
    );
    found.catch(() => cache.delete(key));
    cache.set(key, found);
  }
  return found;
}
