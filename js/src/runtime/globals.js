// The `$`-variables of n8n expressions, installed once per context as getters on globalThis.
import jmespath from 'jmespath';
import { S, fail, need } from './state.js';
import { inputItem, nodeInfo, parametersProxy } from './data.js';
import { dollar, inputProxy, itemsFn, nodeProxy } from './nodes.js';
import { fromAI } from './fromai.js';
import { customDataApi } from './custom-data.js';
import { applyLuxonSettings, luxon } from './luxon.js';
import { arrayFunctions } from '../extensions/array.js';
import { ExpressionExtensionError } from '../extensions/errors.js';
import { defineField } from '../extensions/object.js';

function currentJson() {
  const item = inputItem(S.i);
  return item === undefined ? {} : item.json;
}

function now() {
  if (S.now === null) {
    S.now = luxon().DateTime.fromMillis(S.base.now, { zone: S.base.timezone });
    S.today = S.now.startOf('day');
  }
  return S.now;
}

const envProxy = new Proxy(
  {},
  {
    get(_t, prop) {
      if (typeof prop !== 'string') return undefined;
      if (!S.base.allowEnv) {
        fail(
          'access to env vars denied',
          'If you need access please contact the administrator to remove the environment variable ‘N8N_BLOCK_ENV_ACCESS_IN_NODE‘',
        );
      }
      if (S.env === null) need(['env']);
      return S.env[prop];
    },
    has(_t, prop) {
      if (!S.base.allowEnv) return false;
      if (S.env === null) need(['env']);
      return prop in S.env;
    },
  },
);

function jmespathWrapper(data, query) {
  if (typeof data !== 'object' || typeof query !== 'string') {
    fail('expected two arguments (Object, string) for this function');
  }
  return jmespath.search(Array.isArray(data) ? data : { ...data }, query);
}

// n8n's extended functions (packages/workflow/src/extensions/extended-functions.ts).
function ifEmpty(...args) {
  if (args.length !== 2) fail('expected two arguments (value, defaultValue) for this function');
  const [value, defaultValue] = args;
  if (value === undefined || value === null || value === '') return defaultValue;
  if (typeof value === 'object' && (Array.isArray(value) ? !value.length : !Object.keys(value).length)) {
    return defaultValue;
  }
  return value;
}

function numberList(start, end) {
  const size = Math.abs(start - end) + 1;
  const out = new Array(size);
  for (let i = 0, cur = start; i < size; i++) out[i] = start < end ? cur++ : cur--;
  return out;
}

function zip(keys, values) {
  if (!Array.isArray(keys) || !Array.isArray(values)) throw new ExpressionExtensionError('keys and values must be arrays');
  if (keys.length !== values.length) throw new ExpressionExtensionError('keys and values not of equal length');
  const out = {};
  keys.forEach((key, i) => defineField(out, key, values[i]));
  return out;
}

function toPathSegment(id) {
  if (id === null || id === undefined) fail('Invalid identifier: a value is required');
  const value = String(id);
  if (value === '' || value === '.' || value === '..') fail(`Invalid identifier: "${value}" is not allowed`);
  return encodeURIComponent(value);
}

const average = (...args) => arrayFunctions.average(args, []);
const not = (value) => !value;

// DateTime, Duration, Interval (and Intl) are installed with Luxon (./luxon.js).
const staticGlobals = {
  $jmespath: jmespathWrapper,
  $jmesPath: jmespathWrapper,
  // n8n compiles `$if(a, b[, c])` to `a ? b : c`, `c` being false when it is left out.
  $if: (condition, valueIfTrue, valueIfFalse = false) => (condition ? valueIfTrue : valueIfFalse),
  $ifEmpty: ifEmpty,
  min: Math.min,
  max: Math.max,
  average,
  not,
  numberList,
  zip,
  toPathSegment,
  $min: Math.min,
  $max: Math.max,
  $average: average,
  $not: not,
  $: dollar,
  $node: nodeProxy,
  $items: itemsFn,
  $input: inputProxy,
  $fromAI: fromAI,
  $fromai: fromAI,
  $fromAi: fromAI,
  $env: envProxy,
};

const dynamicGlobals = {
  $json: currentJson,
  $data: currentJson,
  $binary: () => {
    const item = inputItem(S.i);
    return (item && item.binary) || {};
  },
  $itemIndex: () => S.i,
  $thisItemIndex: () => S.i,
  $position: () => S.i,
  $thisItem: () => inputItem(S.i),
  $runIndex: () => S.base.runIndex,
  $thisRunIndex: () => S.base.runIndex,
  $mode: () => S.base.mode,
  $now: now,
  $today: () => {
    now();
    return S.today;
  },
  $vars: () => S.base.variables,
  $workflow: () => S.base.workflow,
  $execution: () => ({
    id: S.base.execution.id,
    mode: S.base.execution.mode,
    resumeUrl: S.base.execution.resumeUrl,
    resumeFormUrl: S.base.execution.resumeFormUrl,
    customData: customDataApi,
  }),
  $prevNode: () => S.base.prevNode || {},
  $parameter: () => parametersProxy(S.base.nodeName),
  $rawParameter: () => nodeInfo(S.base.nodeName).params || {},
  $nodeVersion: () => S.base.nodeVersion,
  $nodeId: () => S.base.nodeId,
  $webhookId: () => S.base.webhookId,
};

// n8n's `additionalKeys` of a declarative node's request building (RoutingNode): the property's value, the
// credential, the response, the request … for one evaluation. The host passes them as the session's `extra`
// (a session lasts one evaluation then); every other session has none, so they read as undefined there.
const ADDITIONAL_KEYS = ['$value', '$credentials', '$response', '$responseItem', '$request', '$parent', '$index',
  '$version'];
const given = (name) => S.base.extra && Object.prototype.hasOwnProperty.call(S.base.extra, name);
for (const name of ADDITIONAL_KEYS) {
  dynamicGlobals[name] = () => (given(name) ? S.base.extra[name] : undefined);
}
// …and may stand in for `$parameter` / `$rawParameter` (n8n resolves a node's own base URL with both empty)
for (const name of ['$parameter', '$rawParameter']) {
  const own = dynamicGlobals[name];
  dynamicGlobals[name] = () => (given(name) ? S.base.extra[name] : own());
}

// V8's Date#toString ends with the zone's long name; QuickJS's stops at the offset. Servers run in UTC.
function installDateToString() {
  const quickjs = Date.prototype.toString;
  Object.defineProperty(Date.prototype, 'toString', {
    value: function toString() {
      const text = quickjs.call(this);
      return text === 'Invalid Date' || this.getTimezoneOffset() !== 0 ? text : `${text} (Coordinated Universal Time)`;
    },
    writable: true,
    configurable: true,
    enumerable: false,
  });
}

export function installGlobals() {
  installDateToString();
  for (const [name, value] of Object.entries(staticGlobals)) {
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
  }
  for (const [name, getter] of Object.entries(dynamicGlobals)) {
    Object.defineProperty(globalThis, name, { get: getter, configurable: true, enumerable: false });
  }
}

export function applySessionSettings() {
  applyLuxonSettings();
}
