// Luxon is loaded on first use (../runtime/luxon.js): `luxon()` asks the host for it when it is missing.
import { luxon } from '../runtime/luxon.js';
import { ExpressionExtensionError } from './errors.js';

function dt(v) {
  return v instanceof Date ? luxon().DateTime.fromJSDate(v) : v;
}

function toDateTime(v) {
  const { DateTime } = luxon();
  if (DateTime.isDateTime(v)) return v;
  if (v instanceof Date) return DateTime.fromJSDate(v);
  if (typeof v === 'number') return DateTime.fromMillis(v);
  if (typeof v === 'string') return DateTime.fromISO(v);
  throw new ExpressionExtensionError('expected a date');
}

function asDate(original, result) {
  return original instanceof Date ? result.toJSDate() : result;
}

function durationArgs(n, unit) {
  if (typeof n === 'object' && n !== null) return n;
  return { [unit || 'milliseconds']: n };
}

const UNIT_ALIASES = {
  y: 'years', year: 'years', years: 'years', M: 'months', month: 'months', months: 'months', w: 'weeks',
  week: 'weeks', weeks: 'weeks', d: 'days', day: 'days', days: 'days', h: 'hours', hour: 'hours',
  hours: 'hours', m: 'minutes', minute: 'minutes', minutes: 'minutes', s: 'seconds', second: 'seconds',
  seconds: 'seconds', ms: 'milliseconds', millisecond: 'milliseconds', milliseconds: 'milliseconds',
  q: 'quarters', quarter: 'quarters', quarters: 'quarters',
};

function unit(u) {
  return UNIT_ALIASES[u] || u;
}

// Methods shared by JS Dates and Luxon DateTimes.
export const dateExtensions = {
  format(fmt) {
    return dt(this).toFormat(fmt);
  },
  beginningOf(u = 'week') {
    return asDate(this, dt(this).startOf(unit(u).replace(/s$/, '')));
  },
  endOfMonth() {
    return asDate(this, dt(this).endOf('month'));
  },
  extract(u = 'week') {
    const d = dt(this);
    const single = unit(u).replace(/s$/, '');
    if (single === 'week') return d.weekNumber;
    if (single === 'yearDayNumber' || u === 'doy') return d.ordinal;
    return d.get(single);
  },
  isBetween(a, b) {
    const d = dt(this);
    const [x, y] = [toDateTime(a), toDateTime(b)].sort((p, q) => p.toMillis() - q.toMillis());
    return d > x && d < y;
  },
  isInLast(n = 0, u = 'minutes') {
    const d = dt(this);
    const now = luxon().DateTime.now();
    return d >= now.minus(durationArgs(n, unit(u))) && d <= now;
  },
  isWeekend() {
    return dt(this).weekday > 5;
  },
  isDst() {
    return dt(this).isInDST;
  },
  isEmpty() {
    return false;
  },
  isNotEmpty() {
    return true;
  },
  toDateTime() {
    return dt(this);
  },
  diffTo(other, u = 'days') {
    const units = Array.isArray(u) ? u.map(unit) : unit(u);
    const diff = dt(this).diff(toDateTime(other), units).toObject();
    return Array.isArray(u) ? diff : diff[units];
  },
  diffToNow(u = 'days') {
    return dateExtensions.diffTo.call(this, luxon().DateTime.now(), u);
  },
};

// Date-only helpers that Luxon DateTimes already have natively (plus/minus take n8n's short form).
const jsDateOnly = {
  plus(n, u) {
    return luxon().DateTime.fromJSDate(this).plus(durationArgs(n, unit(u))).toJSDate();
  },
  minus(n, u) {
    return luxon().DateTime.fromJSDate(this).minus(durationArgs(n, unit(u))).toJSDate();
  },
  toDateTimeString() {
    return luxon().DateTime.fromJSDate(this).toISO();
  },
};

export function installDateExtensions(define) {
  define(Date.prototype, jsDateOnly);
}

/** The extensions on Luxon's DateTime, installed when the Luxon bundle is loaded. */
export function installDateTimeExtensions(define, DateTime) {
  const proto = DateTime.prototype;
  const own = {};
  for (const [name, fn] of Object.entries(dateExtensions)) {
    if (!Object.prototype.hasOwnProperty.call(proto, name)) own[name] = fn;
  }
  define(proto, own);
  // Luxon's `isWeekend` is a getter; n8n documents `isWeekend()` as a method.
  define(proto, { isWeekend: dateExtensions.isWeekend });
  // n8n allows `plus(5, 'days')` on DateTimes too.
  const plus = proto.plus;
  const minus = proto.minus;
  define(proto, {
    plus(n, u) {
      return plus.call(this, typeof n === 'number' && u ? durationArgs(n, unit(u)) : n);
    },
    minus(n, u) {
      return minus.call(this, typeof n === 'number' && u ? durationArgs(n, unit(u)) : n);
    },
  });
}
