// The surface Python calls: sessions, data injection, running compiled expressions and Code.
import { NeedSignal, S, WeftExpressionError, need, resetSession } from './state.js';
import { applySessionSettings } from './globals.js';
import { L, installLuxon, isDateTime, removeTraps } from './luxon.js';
import { ExpressionExtensionError } from '../extensions/errors.js';
import { installExtras } from './extras.js';

const SEP = '\u0001';
const MARK = '\ufdd0';

// QuickJS builds long concatenations as ropes, which the Python binding cannot read: flatten them.
function tagged(tag, json) {
  return (MARK + tag + json).slice(0);
}

function errorInfo(e) {
  if (e instanceof Error) {
    return {
      name: e.name,
      message: e.message,
      description: e.description,
      stack: e.stack || '',
      ours: e instanceof WeftExpressionError,
    };
  }
  return { name: 'Error', message: String(e), stack: '', ours: false, thrownValue: true };
}

function needOut() {
  return tagged('N', JSON.stringify(S.need));
}

function errorOut(e) {
  if (S.need !== null || e instanceof NeedSignal) return needOut();
  const info = errorInfo(e);
  if (S.customDirty) {
    // `$execution.customData.set()` takes effect even when the code fails afterwards.
    info.cd = S.customData;
    S.customDirty = false;
  }
  return tagged('E', JSON.stringify(info));
}

function functionError(v) {
  const message =
    v === L.DateTime ? 'this is a DateTime, please access its methods' : 'this is a function, please add ()';
  return tagged('E', JSON.stringify({ name: 'ExpressionError', message, ours: true, stack: '' }));
}

/** Encode a result for Python: primitives as themselves, objects as tagged JSON. */
function out(v) {
  if (S.customDirty) {
    S.customDirty = false;
    return tagged('X', JSON.stringify({ v: v === undefined ? null : v, cd: S.customData }));
  }
  switch (typeof v) {
    case 'string':
      return v.charCodeAt(0) === 0xfdd0 ? tagged('S', v) : v.slice(0);
    case 'number':
    case 'boolean':
      return v;
    case 'undefined': // told apart from null where the host asks (a declarative node's request building)
      return S.base.extra ? tagged('U', '') : v;
    case 'function':
      return functionError(v);
    case 'bigint':
      return v.toString();
    case 'symbol':
      return v.toString();
    default:
      if (v === null) return null;
      // An invalid DateTime has no JSON (null); n8n's fields get its text.
      if (isDateTime(v) && !v.isValid) return v.toString();
      return tagged('O', JSON.stringify(v));
  }
}

/**
 * n8n's evaluator (Tournament) catches every error of a `{{ }}` segment and keeps only n8n's own expression
 * errors: a TypeError or a user's `throw` makes the segment `undefined`. The host's needs and QuickJS's own
 * failures (out of memory, stack overflow) are not swallowed either.
 */
function swallowed(e) {
  if (S.need !== null || e instanceof NeedSignal) return false;
  if (e instanceof WeftExpressionError || e instanceof ExpressionExtensionError) return false;
  // Weft keeps QuickJS's stack overflow (a RangeError) an error: a silent null hides an endless recursion.
  if (e instanceof RangeError && /stack overflow|call stack/.test(e.message)) return false;
  return !(typeof InternalError === 'function' && e instanceof InternalError);
}

/** A segment of a mixed template failed: rethrow unless n8n would swallow the error (see `swallowed`). */
function segmentError(e) {
  if (!swallowed(e)) throw e;
}

/** Wrap a compiled expression body into `(itemIndex) => encoded result`. */
function wrap(fn) {
  return function run(i) {
    S.i = i;
    S.need = null;
    let v;
    try {
      v = fn();
    } catch (e) {
      if (!swallowed(e)) return errorOut(e);
    }
    if (S.need !== null) return needOut();
    try {
      return out(v);
    } catch (e) {
      return errorOut(e);
    }
  };
}

/**
 * How a value is rendered inside a mixed template (`Hello {{ $json.name }}`): as n8n's evaluator joins the
 * segments, `[v || v === 0 || v === false ? v : '', ...].join('')`. So null, undefined, '' and NaN are '', an
 * object is "[object Object]", an array is its elements joined with commas, a Date is `Date#toString`.
 */
function str(v) {
  if (!(v || v === 0 || v === false)) return '';
  return String(v);
}

function setItems(start, items, all) {
  for (let k = 0; k < items.length; k++) S.items[start + k] = items[k];
  if (all) S.allItems = true;
}

// ------------------------------------------------------------------ Code node

const codeState = { result: undefined, error: undefined, done: false };

function makeConsole() {
  const log = (...args) => {
    if (S.logs === null) S.logs = [];
    if (S.logs.length < 1000) S.logs.push(args.map((a) => (typeof a === 'string' ? a : safeJson(a))).join(' '));
  };
  return { log, info: log, warn: log, error: log, debug: log };
}

function safeJson(v) {
  try {
    const s = JSON.stringify(v);
    return s === undefined ? String(v) : s;
  } catch {
    return String(v);
  }
}

/** Start a Code run: `fn` is the user's code wrapped in an async function. */
function codeStart(fn, i, items) {
  S.i = i;
  S.need = null;
  codeState.done = false;
  codeState.result = undefined;
  codeState.error = undefined;
  const item = i >= 0 ? S.items[i] : undefined;
  if (items && !S.allItems) {
    // "Run once for all items": `items` is every input item, so they are all loaded first (the host answers and
    // the code starts again); a lazily loaded array would hold only the chunks read so far
    S.need = ['items', -1];
    codeState.done = true;
    return;
  }
  let promise;
  try {
    promise = fn(makeConsole(), items ? S.items : undefined, item);
  } catch (e) {
    codeState.error = e;
    codeState.done = true;
    return;
  }
  Promise.resolve(promise).then(
    (v) => {
      codeState.result = v;
      codeState.done = true;
    },
    (e) => {
      codeState.error = e;
      codeState.done = true;
    },
  );
}

/** Finish a Code run after Python drained the job queue: the encoded result. */
function codeFinish() {
  if (S.need !== null) return needOut();
  if (!codeState.done) {
    return tagged('E', JSON.stringify({ name: 'Error', message: 'The code did not finish: a promise never settled', ours: true, stack: '' }));
  }
  if (codeState.error !== undefined) return errorOut(codeState.error);
  const payload = { v: codeState.result === undefined ? null : codeState.result, cd: S.customData, logs: S.logs || [] };
  S.logs = null;
  S.customDirty = false;
  try {
    return tagged('X', JSON.stringify(payload));
  } catch (e) {
    return errorOut(e);
  }
}

export const api = {
  // `[base, start, items]`: the session's base and, loaded with it, the chunk of items its first evaluation needs
  begin(session) {
    resetSession(session[0]);
    applySessionSettings();
    if (session.length > 1) setItems(session[1], session[2], false);
  },
  setItems,
  setNode(name, info) {
    S.nodes[name] = info;
  },
  setRun(name, branch, run, rec) {
    S.runs[name + SEP + branch + SEP + run] = rec;
  },
  setPaired(name, method, start, recs) {
    for (let k = 0; k < recs.length; k++) S.paired[name + SEP + (start + k) + SEP + method] = recs[k];
  },
  setParam(key, i, rec) {
    S.params[i + SEP + key] = rec;
  },
  setEnv(env) {
    S.env = env;
  },
  removeTraps,
  installExtras,
  needLocale(tag) {
    need(['locale', tag]);
  },
  installLuxon(lib) {
    installLuxon(lib);
  },
  wrap,
  str,
  seg: segmentError,
  codeStart,
  codeFinish,
};
