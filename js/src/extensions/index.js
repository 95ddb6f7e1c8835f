// n8n's expression extension methods ("data transformation functions"). As in n8n, they are not on the
// built-in prototypes: the template compiler (weft/expressions/extend.py) rewrites each call `x.name(args)` of an
// extension name into `__x.e(x, 'name')(args)`, and `extend` picks the function by the value's type at run time
// (n8n's `extend` / `findExtendedFunction` in packages/workflow/src/extensions/expression-extension.ts).
import { isDateTime } from '../runtime/luxon.js';
import { arrayFunctions } from './array.js';
import { booleanFunctions } from './boolean.js';
import { dateFunctions } from './date.js';
import { ExpressionExtensionError } from './errors.js';
import { numberFunctions } from './number.js';
import { objectFunctions } from './object.js';
import { stringFunctions } from './string.js';

const TYPES = [
  ['Array', arrayFunctions],
  ['Date', dateFunctions],
  ['Number', numberFunctions],
  ['Object', objectFunctions],
  ['String', stringFunctions],
  ['Boolean', booleanFunctions],
];

const isEmptyValue = (v) => v === null || v === undefined || !v;
const generic = { isEmpty: isEmptyValue, isNotEmpty: (v) => !isEmptyValue(v) };
const own = (table, name) => (Object.prototype.hasOwnProperty.call(table, name) ? table[name] : undefined);

/** Every extension name (the compiler's list comes from the same tables, see `extensionNames`). */
export const EXTENSION_NAMES = [...new Set([...TYPES.flatMap(([, t]) => Object.keys(t)), ...Object.keys(generic)])];

const ISO_UTC = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}.\d{3}Z/;

/** A string in `Date#toISOString` form (what a Date becomes in item JSON) counts as a date. */
function isDateString(v) {
  if (typeof v !== 'string' || !v.length || !ISO_UTC.test(v)) return false;
  const d = new Date(v);
  return !isNaN(d.valueOf()) && d.toISOString() === v;
}

function typedFunction(input, name) {
  if (Array.isArray(input)) return [input, own(arrayFunctions, name)];
  if (isDateString(input) && name !== 'toDate' && name !== 'toDateTime') return [new Date(input), own(dateFunctions, name)];
  if (typeof input === 'string') return [input, own(stringFunctions, name)];
  if (typeof input === 'number') return [input, own(numberFunctions, name)];
  if (input && (isDateTime(input) || input instanceof Date)) return [input, own(dateFunctions, name)];
  if (input !== null && typeof input === 'object') return [input, own(objectFunctions, name)];
  if (typeof input === 'boolean') return [input, own(booleanFunctions, name)];
  return [input, undefined];
}

/** The callable for `input.name(...)`, or undefined when there is none. */
function find(input, name) {
  const [value, fn] = typedFunction(input, name);
  if (fn !== undefined) return (...args) => fn(value, args);
  if (input && typeof input[name] === 'function') return input[name].bind(input);
  const g = own(generic, name);
  return g === undefined ? undefined : () => g(value);
}

function notCallable(input, name) {
  if (input === undefined || input === null) {
    throw new ExpressionExtensionError(
      `${name} can't be used on ${String(input)} value`,
      `To ignore this error, add a ? to the variable before this function, e.g. my_var?.${name}`,
    );
  }
  const types = TYPES.filter(([, t]) => name in t).map(([typeName]) => `"${typeName}"`);
  if (types.length === 0) throw new ExpressionExtensionError(`Unknown expression function: ${name}`);
  if (types.length === 1) throw new ExpressionExtensionError(`${name}() is only callable on type ${types[0]}`);
  const last = types.pop();
  throw new ExpressionExtensionError(`${name}() is only callable on types ${types.join(', ')}, and ${last}`);
}

/** `x.name(args)`: n8n's `extend`. */
function extend(input, name) {
  const fn = find(input, name);
  if (fn === undefined) notCallable(input, name);
  return fn;
}

/** `x.name?.(args)`: n8n's `extendOptional` (undefined when there is no such function). */
function extendOptional(input, name) {
  return find(input, name);
}

/** `x?.name(args)`: nothing when `x` is null or undefined. */
function extendChained(input, name) {
  return input === null || input === undefined ? undefined : extend(input, name);
}

export function installExtensions() {
  Object.defineProperty(globalThis, '__x', {
    value: Object.freeze({ e: extend, o: extendOptional, q: extendChained, names: EXTENSION_NAMES }),
    writable: false,
    configurable: false,
    enumerable: false,
  });
}
