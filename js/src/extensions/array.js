// n8n's array extensions (packages/workflow/src/extensions/array-extensions.ts). Functions take `(value, args)`.
import { WeftExpressionError as ExpressionError } from '../runtime/state.js';
import { ExpressionExtensionError } from './errors.js';
import { compactObject, defineField } from './object.js';

/** lodash's isEqual for JSON-like values (and Dates). */
export function isEqual(a, b) {
  if (a === b || (a !== a && b !== b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && +a === +b;
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && isEqual(a[k], b[k]));
}

function uniqWith(values, same) {
  const out = [];
  for (const v of values) if (!out.some((o) => same(o, v))) out.push(v);
  return out;
}

function hasReadableField(value, field) {
  if (Object.hasOwn(value, field)) return true;
  const proto = Object.getPrototypeOf(value);
  return field in value && (proto === null || !(field in proto));
}

function unique(value, args) {
  const keyed = (item) => {
    if (args.length === 0 || !item || typeof item !== 'object') return item;
    const out = {};
    for (const key of args) defineField(out, key, hasReadableField(item, key) ? item[key] : undefined);
    return out;
  };
  return uniqWith(value, (a, b) => isEqual(keyed(a), keyed(b)));
}

function ensureNumbers(value, name) {
  if (value.some((v) => typeof v !== 'number')) {
    throw new ExpressionExtensionError(`${name}(): all array elements must be numbers`);
  }
}

function sum(value) {
  ensureNumbers(value, 'sum');
  return value.reduce((p, c) => p + c, 0);
}

function pluck(value, args) {
  if (args.length === 0) return value;
  const out = [];
  for (const current of value) {
    if (!current || typeof current !== 'object') continue;
    const picked = [];
    for (const k of Object.keys(current)) for (const field of args) if (field === k) picked.push(current[k]);
    if (picked.length > 0) out.push(picked.length === 1 ? picked[0] : picked);
  }
  return out;
}

function arrayArg(name, others, example) {
  if (!Array.isArray(others)) {
    throw new ExpressionExtensionError(`${name}(): expected array arg, e.g. .${name}(${example})`);
  }
}

function mergeObjects(value, other) {
  if (!other) return value;
  if (typeof other !== 'object') throw new ExpressionExtensionError('merge(): expected object arg');
  const out = { ...value };
  for (const [key, val] of Object.entries(other)) if (!Object.hasOwn(out, key)) defineField(out, key, val);
  return out;
}

function assignAll(target, source) {
  for (const [key, val] of Object.entries(source)) defineField(target, key, val);
}

function merge(value, [others]) {
  if (others === undefined) {
    return value.reduce(
      (combined, cur) => (cur !== null && typeof cur === 'object' && !Array.isArray(cur) ? mergeObjects(combined, cur) : combined),
      {},
    );
  }
  arrayArg('merge', others, '[{ id: 1, otherValue: 3 }]');
  const merged = {};
  for (let i = 0; i < Math.max(value.length, others.length); i++) {
    if (value[i] !== undefined && typeof value[i] === 'object' && typeof others[i] === 'object') {
      assignAll(merged, mergeObjects(value[i], others[i]));
    }
  }
  return merged;
}

function mergeIntoObject(value, [others]) {
  arrayArg('mergeIntoObject', others, '[{ id: 1, otherValue: 3 }]');
  const merged = {};
  for (let i = 0; i < Math.max(value.length, others.length); i++) {
    const otherIsObject = others[i] !== null && typeof others[i] === 'object';
    if (value[i] !== null && typeof value[i] === 'object') {
      assignAll(merged, mergeObjects(value[i], otherIsObject ? others[i] : undefined));
    } else if (otherIsObject) {
      assignAll(merged, others[i]);
    }
  }
  return merged;
}

const has = (list, v) => list.findIndex((w) => isEqual(w, v)) !== -1;

function chunk(value, [size]) {
  if (typeof size !== 'number' || size === 0) {
    throw new ExpressionExtensionError('chunk(): expected non-zero numeric arg, e.g. .chunk(5)');
  }
  const out = [];
  for (let i = 0; i < value.length; i += size) out.push(value.slice(i, i + size));
  return out;
}

function renameKeys(value, args) {
  if (args.length === 0 || args.length % 2 !== 0) {
    throw new ExpressionExtensionError(
      'renameKeys(): expected an even amount of args: from1, to1 [, from2, to2, ...]. e.g. .renameKeys("name", "title")',
    );
  }
  return value.map((v) => {
    if (typeof v !== 'object' || v === null) return v;
    const out = { ...v };
    for (let i = 0; i < args.length; i += 2) {
      if (Object.hasOwn(out, args[i])) {
        defineField(out, args[i + 1], out[args[i]]);
        delete out[args[i]];
      }
    }
    return out;
  });
}

function smartJoin(value, [keyField, valueField]) {
  if (!keyField || !valueField || typeof keyField !== 'string' || typeof valueField !== 'string') {
    throw new ExpressionExtensionError('smartJoin(): expected two string args, e.g. .smartJoin("name", "value")');
  }
  const out = {};
  for (const v of value) {
    if (typeof v === 'object' && v !== null && hasReadableField(v, keyField) && hasReadableField(v, valueField)) {
      defineField(out, v[keyField], v[valueField]);
    }
  }
  return out;
}

function compact(value) {
  return value
    .filter((v) => !(v && typeof v === 'object' && Object.keys(v).length === 0))
    .filter((v) => v !== null && v !== undefined && v !== 'nil' && v !== '')
    .map((v) => (typeof v === 'object' && v !== null ? compactObject(v) : v));
}

const none = () => undefined;

export const arrayFunctions = {
  removeDuplicates: unique,
  unique,
  first: (v) => v[0],
  last: (v) => v[v.length - 1],
  reverse: (v) => [...v].reverse(),
  pluck: (v, args) => {
    if (!Array.isArray(args)) throw new ExpressionError('arguments must be passed to pluck');
    return pluck(v, args);
  },
  randomItem: (v) => (v.length ? v[Math.floor(Math.random() * v.length)] : undefined),
  sum,
  min: (v) => {
    ensureNumbers(v, 'min');
    return Math.min(...v);
  },
  max: (v) => {
    ensureNumbers(v, 'max');
    return Math.max(...v);
  },
  average: (v) => {
    ensureNumbers(v, 'average');
    return v.length === 0 ? 0 : sum(v) / v.length;
  },
  isNotEmpty: (v) => v.length > 0,
  isEmpty: (v) => v.length === 0,
  compact,
  smartJoin,
  chunk,
  renameKeys,
  merge,
  mergeIntoObject,
  union: (v, [others]) => {
    arrayArg('union', others, '[1, 2, 3, 4]');
    const out = Array.from(v);
    for (const o of others) if (!has(out, o)) out.push(o);
    return unique(out, []);
  },
  difference: (v, [others]) => {
    arrayArg('difference', others, '[1, 2, 3, 4]');
    return unique(
      v.filter((x) => !has(others, x)),
      [],
    );
  },
  intersection: (v, [others]) => {
    arrayArg('intersection', others, '[1, 2, 3, 4]');
    return unique([...v.filter((x) => has(others, x)), ...others.filter((x) => has(v, x))], []);
  },
  append: (v, args) => v.concat(args),
  toJsonString: (v) => JSON.stringify(v),
  toInt: none,
  toFloat: none,
  toBoolean: none,
  toDateTime: none,
};
