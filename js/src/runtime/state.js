// Per-session state: one session is one run of one node (one Python ExpressionContext).
// Python fills it lazily: when JS needs data it does not have, it records a "need" and throws;
// Python supplies the data and runs the evaluation again.

export const S = {
  i: 0, // current item index
  base: {},
  items: [],
  itemCount: 0,
  allItems: false,
  nodes: Object.create(null),
  runs: Object.create(null),
  paired: Object.create(null),
  params: Object.create(null),
  env: null,
  need: null,
  customData: {},
  customDirty: false,
  logs: null,
  now: null,
  today: null,
};

export class NeedSignal extends Error {}

/** Ask Python for data this session does not have yet (the evaluation is re-run once it is there). */
export function need(request) {
  S.need = request;
  throw new NeedSignal('weft: data requested from the host');
}

/** An error with n8n's message and an optional description (mapped to weft's ExpressionError). */
export class WeftExpressionError extends Error {
  constructor(message, description) {
    super(message);
    this.name = 'ExpressionError';
    if (description !== undefined) this.description = description;
  }
}

export function fail(message, description) {
  throw new WeftExpressionError(message, description);
}

/** Throw a Python-computed error record `{message, description}`. */
export function raise(record) {
  throw new WeftExpressionError(record.message, record.description);
}

export function resetSession(base) {
  S.base = base;
  S.items = [];
  S.itemCount = base.itemCount;
  S.allItems = false;
  S.nodes = Object.create(null);
  S.runs = Object.create(null);
  S.paired = Object.create(null);
  S.params = Object.create(null);
  S.env = null;
  S.need = null;
  S.customData = base.customData || {};
  S.customDirty = false;
  S.logs = null;
  S.now = null;
  S.today = null;
}
