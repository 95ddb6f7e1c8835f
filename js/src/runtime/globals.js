// The `$`-variables of n8n expressions, installed once per context as getters on globalThis.
import jmespath from 'jmespath';
import { S, fail, need } from './state.js';
import { inputItem, parametersProxy } from './data.js';
import { dollar, inputProxy, itemsFn, nodeProxy } from './nodes.js';
import { fromAI } from './fromai.js';
import { customDataApi } from './custom-data.js';
import { applyLuxonSettings, isDateTime, luxon } from './luxon.js';

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

function isEmptyValue(value) {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object' && !(value instanceof Date) && !isDateTime(value)) {
    return Object.keys(value).length === 0;
  }
  return false;
}

function numbers(args, name) {
  return args.map((n) => {
    if (typeof n !== 'number') fail(`${name}(): all arguments must be numbers`);
    return n;
  });
}

// DateTime, Duration, Interval (and Intl) are installed with Luxon (./luxon.js).
const staticGlobals = {
  $jmespath: jmespathWrapper,
  $jmesPath: jmespathWrapper,
  $if: (condition, valueIfTrue, valueIfFalse) => (condition ? valueIfTrue : valueIfFalse),
  $ifEmpty: (value, defaultValue) => (isEmptyValue(value) ? defaultValue : value),
  $min: (...args) => Math.min(...numbers(args, '$min')),
  $max: (...args) => Math.max(...numbers(args, '$max')),
  $average: (...args) => {
    const nums = numbers(args, '$average');
    return nums.length ? nums.reduce((a, b) => a + b, 0) / nums.length : NaN;
  },
  $not: (value) => !value,
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
  $rawParameter: () => S.base.rawParameters,
  $nodeVersion: () => S.base.nodeVersion,
  $nodeId: () => S.base.nodeId,
  $webhookId: () => S.base.webhookId,
};

export function installGlobals() {
  for (const [name, value] of Object.entries(staticGlobals)) {
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
  }
  for (const [name, getter] of Object.entries(dynamicGlobals)) {
    Object.defineProperty(globalThis, name, { get: getter, configurable: true, enumerable: false });
  }
}

export function applySessionSettings() {
  applyLuxonSettings();
  for (const [name, value] of Object.entries(S.base.extra || {})) {
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
  }
}
