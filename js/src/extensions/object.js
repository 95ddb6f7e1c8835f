// n8n's object extensions (packages/workflow/src/extensions/object-extensions.ts). Functions take `(value, args)`.
import { ExpressionExtensionError } from './errors.js';

/** Set a key the way n8n's `defineField` does: `__proto__` becomes an own field, not the prototype. */
export function defineField(target, key, value) {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

function isEmpty(value) {
  return Object.keys(value).length === 0;
}

function matchArg(name, match, message) {
  if (typeof match !== 'string' || match === '') throw new ExpressionExtensionError(message || `${name}(): expected non-empty string arg`);
}

export function compactObject(value) {
  const out = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === null || v === undefined || v === 'nil' || v === '') continue;
    if (typeof v === 'object') {
      if (Object.keys(v).length === 0) continue;
      defineField(out, key, compactObject(v));
    } else {
      defineField(out, key, v);
    }
  }
  return out;
}

// URLSearchParams(object).toString(): application/x-www-form-urlencoded, values stringified.
function formEncode(s) {
  return encodeURIComponent(s).replace(/%20/g, '+').replace(/[!'()~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

const none = () => undefined;

export const objectFunctions = {
  isEmpty,
  isNotEmpty: (v) => !isEmpty(v),
  hasField: (v, [name]) => name in v,
  removeField: (v, [name]) => {
    if (!(name in v)) return v;
    const out = { ...v };
    delete out[name];
    return out;
  },
  removeFieldsContaining: (v, [match]) => {
    matchArg('removeFieldsContaining', match);
    const out = { ...v };
    for (const [key, val] of Object.entries(v)) if (typeof val === 'string' && val.includes(match)) delete out[key];
    return out;
  },
  keepFieldsContaining: (v, [match]) => {
    matchArg('keepFieldsContaining', match, 'argument of keepFieldsContaining must be a non-empty string');
    const out = { ...v };
    for (const [key, val] of Object.entries(v)) if (typeof val !== 'string' || !val.includes(match)) delete out[key];
    return out;
  },
  compact: compactObject,
  urlEncode: (v) =>
    Object.entries(v)
      .map(([k, val]) => `${formEncode(k)}=${formEncode(String(val))}`)
      .join('&'),
  keys: (v) => Object.keys(v),
  values: (v) => Object.values(v),
  toJsonString: (v) => JSON.stringify(v),
  toInt: none,
  toFloat: none,
  toBoolean: none,
  toDateTime: none,
};
