// Lazy access to run data: input items, other nodes' outputs and paired items.
import { S, need, fail, raise } from './state.js';

const SEP = '\u0001';

export function inputItem(i) {
  if (i < 0 || i >= S.itemCount) return undefined;
  const it = S.items[i];
  if (it === undefined) need(['items', i]);
  return it;
}

export function allInputItems() {
  if (!S.allItems) need(['items', -1]);
  return S.items;
}

export function nodeInfo(name) {
  const info = S.nodes[name];
  if (info === undefined) need(['node', name]);
  return info;
}

/** Items of `name`'s output `branch` in run `run` (-1: last run; branch null: the one wired to this node). */
export function runItems(name, branch, run) {
  const key = name + SEP + branch + SEP + run;
  const rec = S.runs[key];
  if (rec === undefined) need(['run', name, branch, run]);
  if (rec.error) raise(rec.error);
  return rec.items;
}

/** The item of `name` that the input item `index` derives from (n8n's paired-item lineage). */
export function pairedItem(name, index, method) {
  const key = name + SEP + index + SEP + method;
  const rec = S.paired[key];
  if (rec === undefined) need(['paired', name, index, method]);
  if (rec.error) raise(rec.error);
  return rec.item;
}

export function ensureExecuted(name, info) {
  if (!info.executed) {
    fail(
      `Node '${name}' hasn't been executed`,
      `An expression references this node, but the node is unexecuted. Consider re-wiring your nodes or checking for execution first, i.e. {{ $if( $("${name}").isExecuted, <action_if_executed>, "") }}`,
    );
  }
}

export function ensureExists(name, info) {
  if (!info.exists) fail("Referenced node doesn't exist", `No node called '${name}' in this workflow`);
}

export function parameterValue(nodeName, key) {
  const info = nodeInfo(nodeName);
  const params = info.params || {};
  if (!Object.prototype.hasOwnProperty.call(params, key)) return undefined;
  const raw = params[key];
  // a resource locator's value stands for it, resolved like any other value (n8n's nodeParameterGetter)
  const locator = raw !== null && typeof raw === 'object' && raw.__rl === true;
  const value = locator ? raw.value : raw;
  if (typeof value === 'string' && value.charAt(0) === '=' && nodeName === S.base.nodeName) {
    if (value === `={{ $parameter.${key} }}`) return undefined;
    const ck = S.i + SEP + key;
    const rec = S.params[ck];
    if (rec === undefined) need(['param', key, S.i]);
    if (rec.error) raise(rec.error);
    return locator && rec.value !== null && typeof rec.value === 'object' ? rec.value.value : rec.value;
  }
  return value;
}

export function parametersProxy(nodeName) {
  return new Proxy(
    {},
    {
      get(_t, prop) {
        if (typeof prop !== 'string') return undefined;
        if (prop === 'toJSON') return () => nodeInfo(nodeName).params || {};
        return parameterValue(nodeName, prop);
      },
      has(_t, prop) {
        return typeof prop === 'string' && prop in (nodeInfo(nodeName).params || {});
      },
      ownKeys() {
        return Object.keys(nodeInfo(nodeName).params || {});
      },
      getOwnPropertyDescriptor(_t, prop) {
        const params = nodeInfo(nodeName).params || {};
        if (!(prop in params)) return undefined;
        return { enumerable: true, configurable: true, value: parameterValue(nodeName, prop) };
      },
    },
  );
}
