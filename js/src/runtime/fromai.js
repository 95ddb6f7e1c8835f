// `$fromAI(key, description, type, defaultValue)` at run time.
import { S, fail } from './state.js';

const KEY = /^[a-zA-Z0-9_-]{1,64}$/;

export function fromAI(key, _description, _type = 'string', defaultValue) {
  if (!key) fail("Add a key, e.g. $fromAI('placeholder_name')");
  if (!KEY.test(key)) {
    fail(
      'Invalid parameter key, must be between 1 and 64 characters long and only contain lowercase letters, uppercase letters, numbers, underscores, and hyphens',
    );
  }
  const args = S.base.fromAi;
  if (args === null || args === undefined) {
    if (S.base.preview) return `[filled by the model: ${key}]`;
    fail(
      `$fromAI('${key}') has no value: this node is not being run as a tool`,
      'Values of $fromAI() are filled in by the model when an AI Agent calls this node as a tool. ' +
        'Connect the node to an AI Agent (as a tool) and run the agent, or replace $fromAI() with a fixed value.',
    );
  }
  const query = args.query && typeof args.query === 'object' ? args.query : {};
  return query[key] ?? args[key] ?? defaultValue;
}
