// The props every parameter component of the node panel takes (a collection, a fixed collection, a filter, one
// parameter): what it edits and where, and what its displayOptions are tested against.
import type { NodeProperty } from "../api-node-types";
import type { DisplayContext } from "./display";

export interface ParameterProps {
  property: NodeProperty;
  value: unknown;
  /** The parameter's path in the node's parameters (``options.timeout``). */
  path: string;
  /** The node's parameters, defaults filled: what ``/name`` paths of displayOptions read. */
  root: Record<string, unknown>;
  context: DisplayContext;
  readOnly: boolean;
}
