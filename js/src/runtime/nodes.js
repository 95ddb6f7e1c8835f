// `$('Node')`, `$node["Node"]`, `$items()` and `$input`.
import { S, fail } from './state.js';
import {
  allInputItems,
  ensureExecuted,
  ensureExists,
  inputItem,
  nodeInfo,
  pairedItem,
  parametersProxy,
  runItems,
} from './data.js';

function outputOrPinned(name, info, branch, run) {
  if (!info.hasRunData && info.pinned) return runItems(name, 'pin', 0);
  return runItems(name, branch, run === undefined ? -1 : run);
}

function selectNode(name) {
  if (!name) fail('When calling $(), please specify a node');
  const info = nodeInfo(name);
  ensureExists(name, info);
  const pairedMethod = (method) => {
    if (!info.isParent) {
      fail('Invalid expression', `No path back to referenced node '${name}'`);
    }
    ensureExecuted(name, info);
  };
  const branchOf = (branch) => (branch === undefined || branch === null ? info.sourceIndex ?? 0 : branch);
  return {
    get item() {
      pairedMethod('item');
      return pairedItem(name, S.i, 'item');
    },
    itemMatching(index) {
      pairedMethod('itemMatching');
      if (index === undefined) fail('Missing item index for .itemMatching()');
      return pairedItem(name, index, 'itemMatching');
    },
    pairedItem(index) {
      pairedMethod('pairedItem');
      return pairedItem(name, index === undefined ? S.i : index, 'pairedItem');
    },
    get isExecuted() {
      return info.hasRunData;
    },
    first(branch, run) {
      ensureExecuted(name, info);
      const items = outputOrPinned(name, info, branchOf(branch), run);
      return items[0];
    },
    last(branch, run) {
      ensureExecuted(name, info);
      const items = outputOrPinned(name, info, branchOf(branch), run);
      return items.length ? items[items.length - 1] : undefined;
    },
    all(branch, run) {
      ensureExecuted(name, info);
      return outputOrPinned(name, info, branchOf(branch), run);
    },
    get params() {
      return info.params || {};
    },
    get context() {
      return info.context || {};
    },
  };
}

export function dollar(name) {
  return selectNode(name);
}

function binaryWithoutData(item) {
  const out = {};
  const binary = (item && item.binary) || {};
  for (const key of Object.keys(binary)) {
    const entry = {};
    for (const prop of Object.keys(binary[key])) if (prop !== 'data') entry[prop] = binary[key][prop];
    out[key] = entry;
  }
  return out;
}

function nodeData(name) {
  const info = nodeInfo(name);
  if (!info.exists) fail('Referenced node does not exist', 'Make sure to double-check the node name for typos');
  const itemAt = () => {
    ensureExecuted(name, info);
    const items = outputOrPinned(name, info, null, undefined);
    if (items.length === 0) ensureExecuted(name, { executed: false });
    if (items.length <= S.i) {
      fail(
        `"${name}" node has ${items.length} item(s) but you're trying to access item ${S.i}`,
        `Adjust your expression to access an existing item index (0-${items.length - 1})`,
      );
    }
    return items[S.i];
  };
  return {
    get json() {
      return itemAt().json;
    },
    get data() {
      return itemAt().json;
    },
    get binary() {
      return binaryWithoutData(itemAt());
    },
    get parameter() {
      return parametersProxy(name);
    },
    get runIndex() {
      return info.runCount - 1;
    },
    get context() {
      return info.context || {};
    },
  };
}

export const nodeProxy = new Proxy(
  {},
  {
    get(_t, prop) {
      if (typeof prop !== 'string') return undefined;
      return nodeData(prop);
    },
    has: () => true,
  },
);

export function itemsFn(name, outputIndex, runIndex) {
  if (name === undefined) return allInputItems();
  const info = nodeInfo(name);
  ensureExists(name, info);
  ensureExecuted(name, info);
  return outputOrPinned(name, info, outputIndex || 0, runIndex === undefined ? -1 : runIndex);
}

function noInput() {
  if (S.itemCount === 0) fail('No execution data available');
}

export const inputProxy = {
  get item() {
    noInput();
    return inputItem(S.i);
  },
  first(...args) {
    noInput();
    if (args.length) fail('$input.first() should have no arguments');
    return inputItem(0);
  },
  last(...args) {
    noInput();
    if (args.length) fail('$input.last() should have no arguments');
    return inputItem(S.itemCount - 1);
  },
  all() {
    if (S.itemCount === 0) return [];
    return allInputItems();
  },
  get params() {
    noInput();
    const prev = S.base.prevNode;
    return prev ? nodeInfo(prev.name).params || {} : {};
  },
  get context() {
    return {};
  },
};
