// What the node panel (NDV) shares with the components inside it (parameter inputs, expression previews,
// credential selects, the waiting panel): provided by NodePanel.vue, injected with ``inject(NDV)``.
import type { InjectionKey, Ref } from "vue";
import type { Workflow } from "./graph";

export interface NdvContext {
  /** The workflow as edited, unsaved changes included (what an expression preview evaluates against). */
  workflow: () => Workflow;
  /** The node the panel shows. */
  nodeName: Ref<string>;
  /** The execution whose data the panel shows: the last run in the editor, or the opened execution; null before. */
  executionId: Ref<string | null>;
  /** An opened past execution: nothing can be edited. */
  readOnly: Ref<boolean>;
}

export const NDV: InjectionKey<NdvContext> = Symbol("weft-ndv");
