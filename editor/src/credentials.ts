// Pure helpers of the credential forms and selects: n8n's redaction placeholders, which properties a form
// shows (n8n's displayOptions, from parameters/display.ts), the data a form starts with and saves, and which
// credential types a node needs.
import type { NodeProperty, NodeTypeDescription } from "./api-node-types";
import type { WorkflowNode } from "./graph";
import type { CredentialSummary, CredentialType } from "./api-credentials";
import { displayParameter } from "./parameters/display";
import { withDefaults } from "./parameters/defaults";

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
  return type.properties.filter((p) => p.type !== "hidden" && displayParameter(values, p, null));
}

/** What a save sends: each displayed (or hidden) property's value; an untouched secret stays the placeholder. */
export function dataToSave(type: CredentialType, values: Values): Values {
  const data: Values = {};
  for (const property of type.properties) {
    if (property.type === "notice" || !displayParameter(values, property, null)) continue;
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

/** The credential types the node needs with its parameters: its description's ``credentials`` that their
 * displayOptions show, or, for generic or predefined auth (HTTP Request), the type its parameters name. */
export function nodeCredentialTypes(node: WorkflowNode, description: NodeTypeDescription): string[] {
  const context = { typeVersion: node.typeVersion ?? 1, typeName: node.type };
  const values = withDefaults(description.properties, node.parameters ?? {}, context);
  const types: string[] = [];
  if (values.authentication === "genericCredentialType" && typeof values.genericAuthType === "string") {
    if (values.genericAuthType) types.push(values.genericAuthType);
  } else if (values.authentication === "predefinedCredentialType" && typeof values.nodeCredentialType === "string") {
    if (values.nodeCredentialType) types.push(values.nodeCredentialType);
  }
  for (const credential of description.credentials ?? []) {
    if (displayParameter(values, credential, context) && !types.includes(credential.name)) {
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

/** n8n's ``credentialsSelect`` filter (``credentialTypes`` of the property): ``has:<field>`` (genericAuth,
 * authenticate), ``extends:<type>`` or a type name; the matching types by display name. */
export function matchingCredentialTypes(filters: unknown, types: CredentialType[]): CredentialType[] {
  const wanted = Array.isArray(filters) ? filters.filter((f): f is string => typeof f === "string") : [];
  const matches = (type: CredentialType, filter: string): boolean => {
    if (filter.startsWith("has:")) {
      const field = filter.slice(4) as keyof CredentialType;
      return type[field] !== undefined && type[field] !== false;
    }
    if (filter.startsWith("extends:")) return (type.extends ?? []).includes(filter.slice(8));
    return type.name === filter;
  };
  return types
    .filter((type) => wanted.some((filter) => matches(type, filter)))
    .sort((a, b) => a.displayName.localeCompare(b.displayName));
}
