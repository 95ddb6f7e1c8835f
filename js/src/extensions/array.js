import { ExpressionExtensionError } from './errors.js';

function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual(a[k], b[k]));
}

function uniqueBy(arr, keyFn) {
  const out = [];
  for (const v of arr) {
    const key = keyFn(v);
    if (!out.some((o) => deepEqual(keyFn(o), key))) out.push(v);
  }
  return out;
}

function numbersOf(arr, name) {
  return arr.map((v) => {
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    if (isNaN(n)) throw new ExpressionExtensionError(`${name}(): all array elements must be numbers`);
    return n;
  });
}

function removeDuplicates(...fields) {
  if (fields.length === 0) return uniqueBy(this, (v) => v);
  return uniqueBy(this, (v) => (v && typeof v === 'object' ? fields.map((f) => v[f]) : v));
}

export const arrayExtensions = {
  isEmpty() {
    return this.length === 0;
  },
  isNotEmpty() {
    return this.length > 0;
  },
  first() {
    return this[0];
  },
  last() {
    return this[this.length - 1];
  },
  sum() {
    return numbersOf(this, 'sum').reduce((a, b) => a + b, 0);
  },
  average() {
    if (this.length === 0) return 0;
    return numbersOf(this, 'average').reduce((a, b) => a + b, 0) / this.length;
  },
  max() {
    return Math.max(...numbersOf(this, 'max'));
  },
  min() {
    return Math.min(...numbersOf(this, 'min'));
  },
  pluck(...fields) {
    const picked = this.map((v) => {
      if (!v || typeof v !== 'object') return null;
      if (fields.length === 1) return v[fields[0]];
      const o = {};
      for (const f of fields) if (f in v) o[f] = v[f];
      return o;
    });
    return fields.length === 0 ? this : picked.filter((v) => v !== undefined && v !== null);
  },
  removeDuplicates,
  unique: removeDuplicates,
  compact() {
    return this.filter((v) => v !== null && v !== undefined && v !== 'nil' && v !== '').map((v) =>
      v && typeof v === 'object' && !Array.isArray(v) ? v.compact() : v,
    );
  },
  chunk(size) {
    if (!(size > 0)) throw new ExpressionExtensionError('chunk(): size must be a positive number');
    const out = [];
    for (let i = 0; i < this.length; i += size) out.push(this.slice(i, i + size));
    return out;
  },
  difference(other) {
    return this.filter((v) => !other.some((o) => deepEqual(o, v)));
  },
  intersection(other) {
    return uniqueBy(
      this.filter((v) => other.some((o) => deepEqual(o, v))),
      (v) => v,
    );
  },
  union(other) {
    return uniqueBy([...this, ...other], (v) => v);
  },
  append(...values) {
    return [...this, ...values];
  },
  randomItem() {
    return this[Math.floor(Math.random() * this.length)];
  },
  renameKeys(...pairs) {
    if (pairs.length % 2 !== 0) throw new ExpressionExtensionError('renameKeys(): expected an even number of arguments');
    return this.map((v) => {
      if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
      const o = { ...v };
      for (let i = 0; i < pairs.length; i += 2) {
        if (pairs[i] in o) {
          o[pairs[i + 1]] = o[pairs[i]];
          delete o[pairs[i]];
        }
      }
      return o;
    });
  },
  smartJoin(keyField, valueField) {
    const out = {};
    for (const v of this) {
      if (v && typeof v === 'object' && keyField in v) out[v[keyField]] = v[valueField];
    }
    return out;
  },
  toJsonString() {
    return JSON.stringify(this);
  },
};
