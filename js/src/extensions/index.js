// n8n's expression extension methods ("data transformation functions"), installed as
// non-enumerable methods on the built-in prototypes of the sandbox.
import { arrayExtensions } from './array.js';
import { booleanExtensions } from './boolean.js';
import { dateExtensions, installDateExtensions } from './date.js';
import { numberExtensions } from './number.js';
import { objectExtensions } from './object.js';
import { stringExtensions } from './string.js';

export function define(proto, methods) {
  for (const [name, fn] of Object.entries(methods)) {
    Object.defineProperty(proto, name, { value: fn, writable: true, configurable: true, enumerable: false });
  }
}

export function installExtensions() {
  define(Object.prototype, objectExtensions);
  define(String.prototype, stringExtensions);
  define(Number.prototype, numberExtensions);
  define(Array.prototype, arrayExtensions);
  define(Boolean.prototype, booleanExtensions);
  define(Date.prototype, dateExtensions);
  installDateExtensions(define);
}
