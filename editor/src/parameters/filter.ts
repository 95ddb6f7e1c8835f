// The filter parameter (If / Filter v2): n8n's operators by type, a new condition, and the options a new filter
// value starts with (n8n's DEFAULT_FILTER_OPTIONS merged with the property's ``typeOptions.filter``).
import { getPath } from "./paths";

export interface Operator {
  type: string;
  operation: string;
  name: string;
  singleValue?: true;
  rightType?: string;
}

export interface Condition {
  id: string;
  leftValue: unknown;
  rightValue: unknown;
  operator: { type: string; operation: string; singleValue?: true; rightType?: string };
}

const NAMES: Record<string, string> = {
  exists: "exists", notExists: "does not exist", empty: "is empty", notEmpty: "is not empty",
  equals: "is equal to", notEquals: "is not equal to", contains: "contains", notContains: "does not contain",
  startsWith: "starts with", notStartsWith: "does not start with", endsWith: "ends with",
  notEndsWith: "does not end with", regex: "matches regex", notRegex: "does not match regex",
  gt: "is greater than", lt: "is less than", gte: "is greater than or equal to", lte: "is less than or equal to",
  after: "is after", before: "is before", afterOrEquals: "is after or equal to", beforeOrEquals: "is before or equal to",
  true: "is true", false: "is false", lengthEquals: "length equal to", lengthNotEquals: "length not equal to",
  lengthGt: "length greater than", lengthLt: "length less than", lengthGte: "length greater than or equal to",
  lengthLte: "length less than or equal to",
};
const UNARY = ["exists", "notExists", "empty", "notEmpty"];
const BY_TYPE: Record<string, string[]> = {
  string: [...UNARY, "equals", "notEquals", "contains", "notContains", "startsWith", "notStartsWith", "endsWith", "notEndsWith", "regex", "notRegex"],
  number: [...UNARY, "equals", "notEquals", "gt", "lt", "gte", "lte"],
  dateTime: [...UNARY, "equals", "notEquals", "after", "before", "afterOrEquals", "beforeOrEquals"],
  boolean: [...UNARY, "true", "false", "equals", "notEquals"],
  array: [...UNARY, "contains", "notContains", "lengthEquals", "lengthNotEquals", "lengthGt", "lengthLt", "lengthGte", "lengthLte"],
  object: UNARY,
};
export const TYPE_NAMES: Record<string, string> = {
  string: "String", number: "Number", dateTime: "Date & Time", boolean: "Boolean", array: "Array", object: "Object",
};

function operator(type: string, operation: string): Operator {
  const found: Operator = { type, operation, name: NAMES[operation] };
  if (UNARY.includes(operation) || operation === "true" || operation === "false") found.singleValue = true;
  if (type === "array" && operation.startsWith("length")) found.rightType = "number";
  else if (type === "array" && operation.endsWith("ontains")) found.rightType = "any";
  return found;
}

/** n8n's OPERATORS_BY_ID, keyed ``type:operation``, in n8n's order. */
export const OPERATORS: Map<string, Operator> = new Map(
  Object.entries(BY_TYPE).flatMap(([type, operations]) =>
    operations.map((operation): [string, Operator] => [`${type}:${operation}`, operator(type, operation)]),
  ),
);

/** A condition's operator as n8n stores it (``singleValue`` / ``rightType`` only when the operator has them). */
export function storedOperator(id: string): Condition["operator"] {
  const found = OPERATORS.get(id) ?? operator("string", "equals");
  const { name: _name, ...stored } = found;
  void _name;
  return stored;
}

/** A new condition (n8n: left and right empty, ``string:equals``). */
export function newCondition(): Condition {
  return { id: crypto.randomUUID(), leftValue: "", rightValue: "", operator: storedOperator("string:equals") };
}

const DEFAULT_OPTIONS = { caseSensitive: true, leftValue: "", typeValidation: "strict", version: 1 };

/** The value of one ``typeOptions.filter`` entry: fixed values as they are; the expressions n8n's If and Filter
 * declare (``!$parameter.x``, a ``$nodeVersion >= n ? a : b`` ladder, a ``? "loose" : "strict"`` choice). */
function resolveOption(value: unknown, version: number, root: Record<string, unknown>): unknown {
  if (typeof value !== "string" || !value.startsWith("=")) return value;
  const body = value.replace(/^=\{\{\s*|\s*\}\}$/g, "");
  const negated = /^!\$parameter\.([\w.]+)$/.exec(body);
  if (negated) return !getPath(root, negated[1]);
  const ladder = [...body.matchAll(/\$nodeVersion\s*>=\s*([\d.]+)\s*\?\s*([\d.]+)\s*:/g)];
  if (ladder.length) {
    const hit = ladder.find((step) => version >= Number(step[1]));
    return Number(hit ? hit[2] : /:\s*([\d.]+)\s*$/.exec(body)?.[1] ?? 1);
  }
  const choice = /\?\s*"(\w+)"\s*:\s*"(\w+)"\s*$/.exec(body);
  if (choice) {
    const paths = [...body.matchAll(/\$parameter\.([\w.]+)/g)].map((m) => m[1]);
    const older = /\$nodeVersion\s*<\s*([\d.]+)/.exec(body);
    const used = older && paths.length === 2 ? paths[version < Number(older[1]) ? 0 : 1] : paths[0];
    return getPath(root, used ?? "") ? choice[1] : choice[2];
  }
  return undefined;
}

/** The options a new filter value starts with. */
export function filterOptions(
  declared: Record<string, unknown> | undefined,
  version: number,
  root: Record<string, unknown>,
): Record<string, unknown> {
  const options: Record<string, unknown> = { ...DEFAULT_OPTIONS };
  for (const [key, value] of Object.entries(declared ?? {})) {
    const resolved = resolveOption(value, version, root);
    if (resolved !== undefined) options[key] = resolved;
  }
  return options;
}
