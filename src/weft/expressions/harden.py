"""Freezing a context before user code runs in it: the intrinsics, the globals and everything they reach.

Expressions of every execution share one context per thread (a fresh one per evaluation would cost its
start-up each time). So that no state passes between executions, workflows or nodes, the context is frozen
once its trusted bundles are loaded and before any expression runs: every object reachable from ``globalThis``
(the built-ins and their prototypes, the ``$``-getters, Luxon, the polyfills) and the intrinsics that have no
global name (the generator, async and iterator prototypes, ``%TypedArray%``) become frozen, and ``globalThis``
itself takes no new property. What an expression builds lives in its own objects and dies with them. Of
``__weft`` only the entry points compiled expressions call stay in reach; the loaders and the session setters
are called by Python through the handles it took before the freeze.

A frozen prototype would stop ``err.name = 'X'`` or ``obj.toString = f`` on an *instance* ("the override
mistake"), so, as SES does, the few names code commonly overrides become accessors whose setter defines an own
property on the instance and ignores a write to the prototype itself.
"""

from __future__ import annotations

HARDEN = r"""
(function () {
  'use strict';
  // Expressions keep only the entry points their compiled code and the bundles call; the loaders
  // (installLuxon …) and the session setters stay with Python, which holds them already.
  const api = globalThis.__weft;
  const entry = { wrap: api.wrap, str: api.str, seg: api.seg, needLocale: api.needLocale };
  Object.defineProperty(globalThis, '__weft', { value: entry, writable: false, configurable: false });
  const getProto = Object.getPrototypeOf;
  const hidden = [
    getProto(function* () {}), getProto(async function () {}), getProto(async function* () {}),
    getProto((function* () {})()), getProto((async function* () {})()),
    getProto([][Symbol.iterator]()), getProto(''[Symbol.iterator]()),
    getProto(new Map()[Symbol.iterator]()), getProto(new Set()[Symbol.iterator]()),
    getProto(/a/[Symbol.matchAll]('')), getProto(Int8Array),
  ];
  // The Intl polyfills' loaders (__addLocaleData, __setDefaultTimeZone …) would change what every later
  // evaluation formats; their data is loaded before the freeze.
  // (Before Luxon is loaded, the globals it brings are traps that ask for it: leave them alone.)
  const loaded = (name) => 'value' in (Object.getOwnPropertyDescriptor(globalThis, name) || {});
  for (const name of Object.getOwnPropertyNames(loaded('Intl') ? Intl : {})) {
    const ctor = Intl[name];
    if (typeof ctor !== 'function') continue;
    for (const key of Object.getOwnPropertyNames(ctor)) {
      if (key.startsWith('__') && typeof ctor[key] === 'function') delete ctor[key];
    }
  }
  // The polyfill's time zone tables (some 90,000 arrays) would take most of the freeze: each zone's table is
  // frozen the first time it is read instead.
  const tables = loaded('Intl') ? Intl.DateTimeFormat.tzData : undefined;
  if (tables && typeof tables === 'object') {
    const lazy = {};
    const deepFreeze = (v) => {
      if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return v;
      Object.freeze(v);
      for (const k of Object.keys(v)) deepFreeze(v[k]);
      return v;
    };
    for (const zone of Object.keys(tables)) {
      const table = tables[zone];
      Object.defineProperty(lazy, zone, { get: () => deepFreeze(table), enumerable: true, configurable: false });
    }
    Intl.DateTimeFormat.tzData = lazy;
  }
  // Luxon's inner classes (zones, Locale, formatters, Invalid) have no global name: reach their prototypes
  // through sample values. The samples themselves stay mutable, as Luxon caches lazily on its instances.
  if (loaded('DateTime') && loaded('Duration') && loaded('Interval')) try {
    const at = DateTime.fromISO('2024-01-02T03:04:05', { zone: 'America/New_York' });
    at.toFormat('cccc d LLLL yyyy HH:mm ZZZZ');
    at.toLocaleString(DateTime.DATETIME_FULL);
    at.toRelative({ base: at.plus({ days: 1 }) });
    const samples = [
      at, DateTime.utc(), DateTime.local(), DateTime.fromISO('2024-01-02T03:04:05+02:00', { setZone: true }),
      DateTime.invalid('x'), Duration.fromObject({ hours: 1 }), Duration.invalid('x'),
      Interval.fromDateTimes(at, at.plus({ days: 1 })), Interval.invalid('x'),
    ];
    const visited = new Set();
    const reach = (value, depth) => {
      if ((typeof value !== 'object' && typeof value !== 'function') || value === null || visited.has(value)) return;
      visited.add(value);
      hidden.push(getProto(value));
      if (depth > 4) return;
      for (const key of Reflect.ownKeys(value)) {
        const d = Reflect.getOwnPropertyDescriptor(value, key);
        if (d !== undefined && 'value' in d) reach(d.value, depth + 1);
      }
    };
    for (const sample of samples) reach(sample, 0);
  } catch (e) {}
  const overridable = ['constructor', 'name', 'message', 'stack', 'toString', 'valueOf', 'toLocaleString', 'toJSON'];
  const seen = new Set();
  const prototypes = new Set(hidden);
  const todo = [globalThis, ...hidden];
  while (todo.length) {
    const o = todo.pop();
    if ((typeof o !== 'object' && typeof o !== 'function') || o === null || seen.has(o)) continue;
    seen.add(o);
    if (Array.isArray(o) && getProto(o) === Array.prototype) {
      // Data (the time zone tables are some 90,000 arrays): elements only, no descriptor per index.
      for (let k = 0; k < o.length; k++) {
        const v = o[k];
        if (typeof v === 'object' && v !== null) todo.push(v);
      }
      const named = Object.keys(o);
      if (named.length === o.length) continue;
    }
    try {
      for (const key of Reflect.ownKeys(o)) {
        const d = Reflect.getOwnPropertyDescriptor(o, key);
        if (d === undefined) continue;
        if ('value' in d) {
          todo.push(d.value);
          if (key === 'prototype' && typeof o === 'function') prototypes.add(d.value);
        } else todo.push(d.get, d.set);
      }
      todo.push(getProto(o));
    } catch (e) {}
  }
  prototypes.add(Object.prototype);
  for (const proto of prototypes) {
    if ((typeof proto !== 'object' && typeof proto !== 'function') || proto === null) continue;
    for (const key of overridable) {
      const d = Reflect.getOwnPropertyDescriptor(proto, key);
      if (d === undefined || !('value' in d) || !d.configurable) continue;
      const value = d.value;
      Object.defineProperty(proto, key, {
        get() { return value; },
        set(v) {
          if (this === proto || this === null || this === undefined) return;
          if (Object.prototype.hasOwnProperty.call(this, key)) this[key] = v;
          else Object.defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true });
        },
        enumerable: d.enumerable,
        configurable: false,
      });
    }
  }
  for (const o of seen) {
    try { Object.freeze(o); } catch (e) {}
  }
  return seen.size;
})()
"""
