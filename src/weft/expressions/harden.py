"""Freezing a context before user code runs in it: the intrinsics, the globals and everything they reach.

Expressions of every execution share one context per thread (a fresh one per evaluation would cost its
start-up each time). So that no state passes between executions, workflows or nodes, the context is frozen
once its trusted bundles are loaded and before any expression runs: every object reachable from ``globalThis``
(the built-ins and their prototypes, the ``$``-getters, Luxon, the polyfills) and the intrinsics that have no
global name (the generator, async and iterator prototypes, ``%TypedArray%``) become frozen, and ``globalThis``
itself takes no new property. What an expression builds lives in its own objects and dies with them.

A frozen prototype would stop ``err.name = 'X'`` or ``obj.toString = f`` on an *instance* ("the override
mistake"), so, as SES does, the few names code commonly overrides become accessors whose setter defines an own
property on the instance and ignores a write to the prototype itself.
"""

from __future__ import annotations

HARDEN = r"""
(function () {
  'use strict';
  const getProto = Object.getPrototypeOf;
  const hidden = [
    getProto(function* () {}), getProto(async function () {}), getProto(async function* () {}),
    getProto((function* () {})()), getProto((async function* () {})()),
    getProto([][Symbol.iterator]()), getProto(''[Symbol.iterator]()),
    getProto(new Map()[Symbol.iterator]()), getProto(new Set()[Symbol.iterator]()),
    getProto(/a/[Symbol.matchAll]('')), getProto(Int8Array),
  ];
  const overridable = ['constructor', 'name', 'message', 'stack', 'toString', 'valueOf', 'toLocaleString', 'toJSON'];
  const seen = new Set();
  const prototypes = new Set(hidden);
  const todo = [globalThis, ...hidden];
  while (todo.length) {
    const o = todo.pop();
    if ((typeof o !== 'object' && typeof o !== 'function') || o === null || seen.has(o)) continue;
    seen.add(o);
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
