"""The Node.js globals that n8n's task runner gives a Code node, for the QuickJS sandbox.

n8n's runner hands user code ``Buffer``, ``setTimeout``/``setInterval``/``setImmediate`` (and their
``clear*``), ``TextEncoder``/``TextDecoder`` and a ``require`` that refuses every module unless the
instance allows it (``NODE_FUNCTION_ALLOW_BUILTIN``/``_EXTERNAL``, empty by default). QuickJS has none of
them, so :data:`CODE_GLOBALS` defines them as locals of the function that wraps the user's code.

Timers run on a virtual clock: when no promise job is left, :data:`FIRE_NEXT_TIMER` runs the earliest
timer (by due time, then by creation), so ``await new Promise(r => setTimeout(r, 5))`` settles at once
and in the order Node would settle it. ``Buffer`` covers what Code nodes use: ``from`` (strings in
``utf8``/``base64``/``base64url``/``hex``/``latin1``, arrays, other buffers), ``alloc``, ``concat``,
``byteLength``, ``isBuffer``, ``toString(encoding)`` and ``toJSON``.
"""

from __future__ import annotations

#: Evaluated (as a global expression) after each drained job queue; ``true`` while a timer ran.
FIRE_NEXT_TIMER = "globalThis.__weftTimers !== undefined && globalThis.__weftTimers.fire()"

_TIMERS = """
const __tm = globalThis.__weftTimers = {q: [], seq: 0, now: 0, fire() {
  if (!this.q.length) return false;
  this.q.sort((a, b) => a.at - b.at || a.id - b.id);
  const t = this.q.shift(); this.now = Math.max(this.now, t.at);
  if (t.every !== undefined) this.q.push({...t, at: this.now + t.every});
  try { t.fn(...t.args); } catch (e) { /* Node would report it as uncaught */ } return true;
}};
const __addTimer = (fn, ms, args, every) => {
  const id = ++__tm.seq; const wait = Math.max(0, Number(ms) || 0);
  const run = typeof fn === 'function' ? fn : () => {};
  __tm.q.push({id, at: __tm.now + wait, fn: run, args, every: every ? Math.max(1, wait) : undefined});
  return id;
};
const __clearTimer = (id) => { __tm.q = __tm.q.filter((t) => t.id !== id); };
const setTimeout = (fn, ms, ...args) => __addTimer(fn, ms, args, false);
const setInterval = (fn, ms, ...args) => __addTimer(fn, ms, args, true);
const setImmediate = (fn, ...args) => __addTimer(fn, 0, args, false);
const clearTimeout = __clearTimer, clearInterval = __clearTimer, clearImmediate = __clearTimer;
"""

_TEXT = """
const __utf8 = (s) => {
  const out = []; s = String(s);
  for (let i = 0; i < s.length; i++) {
    let c = s.codePointAt(i); if (c > 0xffff) i++;
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return out;
};
const __fromUtf8 = (b) => {
  let s = '';
  for (let i = 0; i < b.length;) {
    const c = b[i]; const n = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
    if (n === 0 || i + n > b.length) { s += '\\ufffd'; i++; continue; }
    let cp = n === 1 ? c : c & (0xff >> (n + 1));
    for (let k = 1; k < n; k++) cp = (cp << 6) | (b[i + k] & 63);
    s += String.fromCodePoint(cp); i += n;
  }
  return s;
};
class TextEncoder { get encoding() { return 'utf-8'; } encode(s = '') { return new Uint8Array(__utf8(s)); } }
class TextDecoder { get encoding() { return 'utf-8'; } decode(b) {
  if (b === undefined) return '';
  return __fromUtf8(new Uint8Array(b.buffer ? b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) : b));
} }
"""

_BUFFER = """
const __latin1 = (b) => { let s = ''; for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i]); return s; };
const __bytesOf = (s, enc) => {
  enc = String(enc || 'utf8').toLowerCase();
  if (enc === 'base64' || enc === 'base64url') {
    s = String(s).replace(/[^A-Za-z0-9+/_-]/g, '').replace(/-/g, '+').replace(/_/g, '/');
    while (s.length % 4) s += '=';
    return Array.from(atob(s), (ch) => ch.charCodeAt(0));
  }
  if (enc === 'hex') {
    const out = [];
    for (let i = 0; i + 1 < s.length; i += 2) {
      const v = parseInt(s.slice(i, i + 2), 16); if (isNaN(v)) break; out.push(v);
    }
    return out;
  }
  if (enc === 'latin1' || enc === 'binary' || enc === 'ascii') {
    return Array.from(String(s), (ch) => ch.charCodeAt(0) & 255);
  }
  return __utf8(s);
};
class Buffer extends Uint8Array {
  static from(v, enc) {
    if (typeof v === 'string') v = __bytesOf(v, enc);
    else if (v instanceof ArrayBuffer) v = new Uint8Array(v);
    else if (v && v.type === 'Buffer' && Array.isArray(v.data)) v = v.data;
    const b = new Buffer(v.length); for (let i = 0; i < v.length; i++) b[i] = v[i] & 255; return b;
  }
  static alloc(n, fill) {
    const b = new Buffer(n); if (fill !== undefined) b.fill(typeof fill === 'string' ? fill.charCodeAt(0) : fill);
    return b;
  }
  static isBuffer(x) { return x instanceof Buffer; }
  static byteLength(s, enc) { return typeof s === 'string' ? __bytesOf(s, enc).length : s.byteLength; }
  static concat(list) {
    const out = new Buffer(list.reduce((n, b) => n + b.length, 0)); let o = 0;
    for (const b of list) { out.set(b, o); o += b.length; }
    return out;
  }
  toString(enc, start = 0, end = this.length) {
    const b = Uint8Array.prototype.slice.call(this, start, end); enc = String(enc || 'utf8').toLowerCase();
    if (enc === 'base64') return btoa(__latin1(b));
    if (enc === 'base64url') return btoa(__latin1(b)).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
    if (enc === 'hex') return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    if (enc === 'latin1' || enc === 'binary' || enc === 'ascii') return __latin1(b);
    return __fromUtf8(b);
  }
  toJSON() { return {type: 'Buffer', data: Array.from(this)}; }
  equals(o) { return this.length === o.length && this.every((x, i) => x === o[i]); }
}
"""

_REQUIRE = """
const require = (name) => { throw new Error(`Module '${name}' is disallowed`); };
"""

#: JavaScript declaring the globals; it sits on line 1 of the wrapper, so it must hold no line break.
CODE_GLOBALS = " ".join(line.strip() for line in (_TIMERS + _TEXT + _BUFFER + _REQUIRE).splitlines() if line.strip())
