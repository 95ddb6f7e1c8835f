// Pure helpers of the credential forms and selects: n8n's redaction placeholders, which properties a form
// shows (n8n's displayOptions), the data a form starts with and saves, and which credential types a node needs.
import type { DisplayOptions, NodeProperty, NodeTypeDescription } from "./api-node-types";
import type { WorkflowNode } from "./graph";
import type { CredentialSummary, CredentialType } from "./api-credentials";

/** n8n-workflow's CREDENTIAL_BLANKING_VALUE: a stored secret, never sent to the browser. */
export const BLANK = "__n8n_BLANK_VALUE_e5362baf-c777-4d57-a609-6eaf1f9e87f6";
/** n8n-workflow's CREDENTIAL_EMPTY_VALUE: a stored secret that is empty. */
export const EMPTY = "__n8n_EMPTY_VALUE_7b1af746-3729-4c60-9b9b-e08eb29e58da";

export type Values = Record<string, unknown>;

export function isSecret(property: NodeProperty): boolean {
  return property.typeOptions?.password === true;
}

export function isPlaceholder(value: unknown): boolean {
  return value === BLANK || value === EMPTY;
}

type Condition = { _cnd: Record<string, unknown> };

function matches(expected: unknown, actual: unknown): boolean {
  if (expected && typeof expected === "object" && "_cnd" in expected) {
    const [op, target] = Object.entries((expected as Condition)._cnd)[0] ?? [];
    const n = Number(actual);
    switch (op) {
      case "eq": return actual === target;
      case "not": return actual !== target;
      case "gt": return n > Number(target);
      case "gte": return n >= Number(target);
      case "lt": return n < Number(target);
      case "lte": return n <= Number(target);
      case "startsWith": return String(actual).startsWith(String(target));
      case "endsWith": return String(actual).endsWith(String(target));
      case "includes": return String(actual).includes(String(target));
      case "exists": return actual !== undefined && actual !== null && actual !== "";
      default: return false;
    }
  }
  return expected === actual;
}

/** n8n's ``displayParameter``: every ``show`` key has one of its values, no ``hide`` key does. */
export function isShown(options: DisplayOptions | undefined, values: Values, version?: number): boolean {
  if (!options) return true;
  const read = (key: string): unknown => (key === "@version" ? version : values[key.replace(/^\//, "")]);
  for (const [key, allowed] of Object.entries(options.show ?? {})) {
    if (!allowed.some((v) => matches(v, read(key)))) return false;
  }
  for (const [key, denied] of Object.entries(options.hide ?? {})) {
    if (denied.some((v) => matches(v, read(key)))) return false;
  }
  return true;
}

/** The form's values: the stored (redacted) data over the properties' defaults. */
export function formValues(type: CredentialType, data: Values = {}): Values {
  const values: Values = {};
  for (const property of type.properties) {
    if (property.type !== "notice" && property.default !== undefined) values[property.name] = property.default;
  }
  return { ...values, ...data };
}

/** The properties a form shows for ``values`` (``hidden`` ones are saved, never shown). */
export function shownProperties(type: CredentialType, values: Values): NodeProperty[] {
  return type.properties.filter((p) => p.type !== "hidden" && isShown(p.displayOptions, values));
}

/** What a save sends: each displayed (or hidden) property's value; an untouched secret stays the placeholder. */
export function dataToSave(type: CredentialType, values: Values): Values {
  const data: Values = {};
  for (const property of type.properties) {
    if (property.type === "notice" || !isShown(property.displayOptions, values)) continue;
    if (values[property.name] !== undefined) data[property.name] = values[property.name];
  }
  return data;
}

/** n8n's name for a new credential: "<type> account", numbered past the names in use. */
export function newCredentialName(type: CredentialType, existing: CredentialSummary[]): string {
  const base = `${type.displayName} account`;
  const names = new Set(existing.map((c) => c.name));
  if (!names.has(base)) return base;
  let n = 2;
  while (names.has(`${base} ${n}`)) n += 1;
  return `${base} ${n}`;
}

function parameterValues(node: WorkflowNode, description: NodeTypeDescription): Values {
  const values: Values = {};
  for (const p of description.properties) {
    if (p.default !== undefined && isShown(p.displayOptions, values, node.typeVersion)) values[p.name] = p.default;
  }
  return { ...values, ...(node.parameters ?? {}) };
}

/** The credential types the node needs with its parameters: its description's ``credentials`` that their
 * displayOptions show, or, for generic or predefined auth (HTTP Request), the type its parameters name. */
export function nodeCredentialTypes(node: WorkflowNode, description: NodeTypeDescription): string[] {
  const values = parameterValues(node, description);
  const types: string[] = [];
  if (values.authentication === "genericCredentialType" && typeof values.genericAuthType === "string") {
    if (values.genericAuthType) types.push(values.genericAuthType);
  } else if (values.authentication === "predefinedCredentialType" && typeof values.nodeCredentialType === "string") {
    if (values.nodeCredentialType) types.push(values.nodeCredentialType);
  }
  for (const credential of description.credentials ?? []) {
    if (isShown(credential.displayOptions, values, node.typeVersion) && !types.includes(credential.name)) {
      types.push(credential.name);
    }
  }
  return types;
}

/** n8n's node ``credentials`` with ``type`` set to the credential (or removed with ``null``). */
export function withCredential(
  node: WorkflowNode,
  type: string,
  credential: { id: string; name: string } | null,
): Record<string, { id: string; name: string }> {
  const current = { ...((node.credentials as Record<string, { id: string; name: string }> | undefined) ?? {}) };
  if (credential) current[type] = { id: credential.id, name: credential.name };
  else delete current[type];
  return current;
}
