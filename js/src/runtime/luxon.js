// Luxon and the Intl polyfills live in a second bundle (src/luxon/index.js, about 2 MB) that Python loads into
// the context only when an expression needs it: a context starts small and fast.
//
// Until then, every way in is a trap that asks the host for the bundle (`need(['luxon'])`, like any other data
// the sandbox does not have): the globals DateTime, Duration, Interval and Intl, the `toLocale*String` methods the
// polyfills replace, and `luxon()`, which the date extensions and `$now` call. Python loads the bundle and runs
// the evaluation again. (Python also scans the source and loads the bundle up front when it can tell.)
import { S, need } from './state.js';

/** The Luxon classes once the bundle is loaded (all null before). */
export const L = { DateTime: null, Duration: null, Interval: null, Settings: null };

const GLOBALS = ['DateTime', 'Duration', 'Interval', 'Intl'];
// The built-in methods the Intl polyfills replace (BigInt's is added, it does not exist natively).
const METHODS = [
  [Number.prototype, 'toLocaleString'],
  [BigInt.prototype, 'toLocaleString'],
  [Date.prototype, 'toLocaleString'],
  [Date.prototype, 'toLocaleDateString'],
  [Date.prototype, 'toLocaleTimeString'],
];
const natives = [];
let trapGetter = null;

function needLuxon() {
  need(['luxon']);
}

/** The Luxon classes; asks the host for the bundle when it is not loaded yet. */
export function luxon() {
  if (L.DateTime === null) needLuxon();
  return L;
}

/** Luxon's own `DateTime.isDateTime`, usable before Luxon is loaded. */
export function isDateTime(v) {
  return (v && v.isLuxonDateTime) || false;
}

export function installLuxonTraps() {
  trapGetter = function luxonTrap() {
    needLuxon();
  };
  for (const name of GLOBALS) {
    Object.defineProperty(globalThis, name, {
      get: trapGetter,
      // Assigning the global (sloppy Code) replaces it, as it would replace Luxon's value.
      set(value) {
        Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
      },
      configurable: true,
      enumerable: false,
    });
  }
  for (const [proto, name] of METHODS) {
    natives.push([proto, name, Object.getOwnPropertyDescriptor(proto, name)]);
    Object.defineProperty(proto, name, {
      // A reference kept from before the load still works afterwards.
      value: function toLocaleTrap(...args) {
        if (L.DateTime === null) needLuxon();
        return proto[name].apply(this, args);
      },
      writable: true,
      configurable: true,
      enumerable: false,
    });
  }
}

/** Put the built-ins back as they were, so that the polyfills find (and replace) the originals. */
export function removeTraps() {
  for (const [proto, name, descriptor] of natives) {
    if (descriptor === undefined) delete proto[name];
    else Object.defineProperty(proto, name, descriptor);
  }
  natives.length = 0;
  for (const name of GLOBALS) {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, name);
    if (descriptor !== undefined && descriptor.get === trapGetter) delete globalThis[name];
  }
}

/** Called by the Luxon bundle once the polyfills and Luxon are evaluated. */
export function installLuxon(lib) {
  Object.assign(L, lib);
  for (const name of ['DateTime', 'Duration', 'Interval']) {
    if (!Object.prototype.hasOwnProperty.call(globalThis, name)) {
      Object.defineProperty(globalThis, name, { value: lib[name], writable: true, configurable: true, enumerable: false });
    }
  }
  L.Settings.throwOnInvalid = false;
  applyLuxonSettings();
}

/** Per-session Luxon settings (the session's timezone); nothing to do before Luxon is loaded. */
export function applyLuxonSettings() {
  if (L.Settings !== null) L.Settings.defaultZone = S.base.timezone || 'UTC';
}
