// Undo and redo over whole snapshots of the workflow JSON (small: a workflow is a few kB to a few hundred kB).
import type { Workflow } from "./graph";

export class History {
  private undos: string[] = [];
  private redos: string[] = [];

  constructor(private readonly limit = 200) {}

  /** Remember ``workflow`` as it is before an edit. */
  record(workflow: Workflow): void {
    this.undos.push(JSON.stringify(workflow));
    if (this.undos.length > this.limit) this.undos.shift();
    this.redos = [];
  }

  undo(current: Workflow): Workflow | undefined {
    const previous = this.undos.pop();
    if (previous === undefined) return undefined;
    this.redos.push(JSON.stringify(current));
    return JSON.parse(previous) as Workflow;
  }

  redo(current: Workflow): Workflow | undefined {
    const next = this.redos.pop();
    if (next === undefined) return undefined;
    this.undos.push(JSON.stringify(current));
    return JSON.parse(next) as Workflow;
  }

  get canUndo(): boolean {
    return this.undos.length > 0;
  }

  get canRedo(): boolean {
    return this.redos.length > 0;
  }
}
