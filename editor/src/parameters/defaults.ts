// The values a form shows and tests displayOptions against: the stored parameters with each unset, displayed
// property's default (n8n's editor fills them with getNodeParameters). Only for showing: never written back.
import type { NodeProperty } from "../api-node-types";
import { displayParameter, type DisplayContext } from "./display";
import { copyJson } from "./paths";

/** ``values`` with the default of every unset property that displays (resolved until nothing changes). */
export function withDefaults(
  properties: NodeProperty[],
  values: Record<string, unknown>,
  context: DisplayContext | null,
  root?: Record<string, unknown>,
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...values };
  const filled = new Set<string>();
  for (let pass = 0; pass < 4; pass += 1) {
    let changed = false;
    for (const property of properties) {
      if (property.name in values || property.type === "notice") continue;
      const shown = displayParameter(result, property, context, root ?? result);
      if (shown && !filled.has(property.name)) {
        result[property.name] = copyJson(property.default);
        filled.add(property.name);
        changed = true;
      }
    }
    if (!changed) break;
  }
  return result;
}

/** The properties of ``properties`` that show for ``values`` (hidden ones never do), in their order. */
export function shownProperties(
  properties: NodeProperty[],
  values: Record<string, unknown>,
  context: DisplayContext | null,
  root?: Record<string, unknown>,
): NodeProperty[] {
  return properties.filter(
    (property) => property.type !== "hidden" && displayParameter(values, property, context, root ?? values),
  );
}
