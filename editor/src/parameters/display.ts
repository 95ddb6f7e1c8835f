// n8n's displayOptions, ported from n8n-workflow's node-helpers (displayParameter with its getPropertyValues and
// checkConditions): whether a property shows for the node's current parameter values. The forms pass each level's
// values and the node's top level as the root, as n8n's displayParameterPath does for a nested path.
import type { DisplayOptions } from "../api-node-types";
import { getPath } from "./paths";

type Value = unknown;

interface Condition {
  _cnd: Record<string, unknown>;
}

/** What a displayOptions test needs of the node and its type (n8n passes the node and its type description). */
export interface DisplayContext {
  typeVersion: number;
  typeName: string;
}

interface Displayable {
  displayOptions?: DisplayOptions;
}

function isCondition(condition: unknown): condition is Condition {
  return (
    condition !== null &&
    typeof condition === "object" &&
    "_cnd" in condition &&
    Boolean((condition as Condition)._cnd) &&
    Object.keys(condition).length === 1
  );
}

/** lodash's isEqual for JSON values. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function propertyValues(values: unknown, name: string, context: DisplayContext | null, root: unknown): Value[] {
  let value: unknown;
  if (name.charAt(0) === "/") value = getPath(root, name.slice(1));
  else if (name === "@version") value = context?.typeVersion || 0;
  else if (name === "@tool") value = context?.typeName.endsWith("Tool") ?? false;
  else if (name === "@feature") return [];
  else value = getPath(values, name);
  if (value && typeof value === "object" && "__rl" in value && (value as { __rl: unknown }).__rl) {
    value = (value as unknown as { value: unknown }).value;
  }
  return Array.isArray(value) ? value : [value];
}

function meets(key: string, actual: unknown, target: unknown): boolean {
  const number = actual as number;
  const text = actual as string;
  switch (key) {
    case "eq":
      return jsonEqual(actual, target);
    case "not":
      return !jsonEqual(actual, target);
    case "gte":
      return number >= (target as number);
    case "lte":
      return number <= (target as number);
    case "gt":
      return number > (target as number);
    case "lt":
      return number < (target as number);
    case "between": {
      const { from, to } = target as { from: number; to: number };
      return number >= from && number <= to;
    }
    case "includes":
      return typeof text === "string" && text.includes(target as string);
    case "startsWith":
      return typeof text === "string" && text.startsWith(target as string);
    case "endsWith":
      return typeof text === "string" && text.endsWith(target as string);
    case "regex":
      return new RegExp(target as string).test(text);
    case "exists":
      return actual !== null && actual !== undefined && actual !== "";
    default:
      return false;
  }
}

/** n8n's checkConditions: any condition matches (a ``_cnd`` condition must hold for every actual value). */
export function checkConditions(conditions: unknown[], actual: Value[]): boolean {
  return conditions.some((condition) => {
    if (isCondition(condition)) {
      const [key, target] = Object.entries(condition._cnd)[0];
      if (actual.length === 0) return key === "not";
      return actual.every((value) => meets(key, value, target));
    }
    return actual.includes(condition);
  });
}

/** n8n's displayParameter: ``values`` are the parameters at the property's level, ``root`` the node's. */
export function displayParameter(
  values: unknown,
  parameter: Displayable,
  context: DisplayContext | null,
  root?: unknown,
): boolean {
  if (!parameter.displayOptions) return true;
  const { show, hide } = parameter.displayOptions;
  const rootValues = root || values;
  if (show) {
    for (const name of Object.keys(show)) {
      const found = propertyValues(values, name, context, rootValues);
      if (found.some((v) => typeof v === "string" && v.charAt(0) === "=")) return true;
      if (!checkConditions(show[name], found)) return false;
    }
  }
  if (hide) {
    for (const name of Object.keys(hide)) {
      const found = propertyValues(values, name, context, rootValues);
      if (found.length !== 0 && checkConditions(hide[name], found)) return false;
    }
  }
  return true;
}
