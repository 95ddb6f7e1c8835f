import { ExpressionExtensionError } from './errors.js';

function isEmptyObject(o) {
  return Object.keys(o).length === 0;
}

export const objectExtensions = {
  isEmpty() {
    return isEmptyObject(this);
  },
  isNotEmpty() {
    return !isEmptyObject(this);
  },
  hasField(key) {
    return Object.prototype.hasOwnProperty.call(this, key);
  },
  removeField(key) {
    const out = { ...this };
    delete out[key];
    return out;
  },
  removeFieldsContaining(match) {
    if (typeof match !== 'string' || match === '') {
      throw new ExpressionExtensionError('removeFieldsContaining(): expected non-empty string arg');
    }
    const out = {};
    for (const [k, v] of Object.entries(this)) {
      if (!(typeof v === 'string' && v.includes(match))) out[k] = v;
    }
    return out;
  },
  keepFieldsContaining(match) {
    if (typeof match !== 'string' || match === '') {
      throw new ExpressionExtensionError('keepFieldsContaining(): expected non-empty string arg');
    }
    const out = {};
    for (const [k, v] of Object.entries(this)) {
      if (typeof v === 'string' && v.includes(match)) out[k] = v;
    }
    return out;
  },
  compact() {
    const out = {};
    for (const [k, v] of Object.entries(this)) {
      if (v === null || v === undefined || v === 'nil' || v === '') continue;
      out[k] = typeof v === 'object' && !Array.isArray(v) ? objectExtensions.compact.call(v) : v;
    }
    return out;
  },
  toJsonString() {
    return JSON.stringify(this);
  },
  urlEncode() {
    return Object.entries(this)
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
      .join('&');
  },
  keys() {
    return Object.keys(this);
  },
  values() {
    return Object.values(this);
  },
};
