// n8n's date extensions (packages/workflow/src/extensions/date-extensions.ts), for Luxon DateTimes and JS Dates.
// Functions take `(value, args)`. Luxon is loaded on first use: `luxon()` asks the host when it is missing.
import { isDateTime, luxon } from '../runtime/luxon.js';
import { ExpressionExtensionError } from './errors.js';
import { parseDateString } from './string.js';

const DURATION_UNITS = ['milliseconds', 'seconds', 'minutes', 'hours', 'days', 'weeks', 'months', 'quarters', 'years'];
const DATE_PARTS = ['day', 'week', 'month', 'year', 'hour', 'minute', 'second', 'millisecond', 'weekNumber', 'yearDayNumber', 'weekday'];
const DURATION_MAP = {
  day: 'days', month: 'months', year: 'years', week: 'weeks', hour: 'hours', minute: 'minutes', second: 'seconds',
  millisecond: 'milliseconds', ms: 'milliseconds', sec: 'seconds', secs: 'seconds', hr: 'hours', hrs: 'hours',
  min: 'minutes', mins: 'minutes',
};
const DATETIME_UNIT_MAP = {
  days: 'day', months: 'month', years: 'year', hours: 'hour', minutes: 'minute', seconds: 'second',
  milliseconds: 'millisecond', hrs: 'hour', hr: 'hour', mins: 'minute', min: 'minute', secs: 'second', sec: 'second',
  ms: 'millisecond',
};

function fromJs(date) {
  return luxon().DateTime.fromJSDate(date);
}

/** Run `fn` on the value as a DateTime; a JS Date gets a JS Date back. */
function onDateTime(date, fn) {
  if (isDateTime(date)) return fn(date);
  return fn(fromJs(date)).toJSDate();
}

function asDateTime(date) {
  return isDateTime(date) ? date : fromJs(date);
}

function toDateTimeArg(value) {
  if (isDateTime(value)) return value;
  if (typeof value === 'string') {
    try {
      return parseDateString(value);
    } catch {
      throw new ExpressionExtensionError('cannot convert to Luxon DateTime');
    }
  }
  return fromJs(value);
}

/** n8n's `convertToDateTime`: undefined when a string does not parse. */
function convertToDateTime(value) {
  if (typeof value === 'string') {
    const dt = fromJs(new Date(value));
    return dt.invalidReason !== null ? undefined : dt;
  }
  if (value instanceof Date) return fromJs(value);
  if (isDateTime(value)) return value;
  return undefined;
}

function duration(value, unit) {
  return { [DURATION_MAP[unit] || unit]: value };
}

function shift(method) {
  return (date, args) => {
    if (args.length === 1) return onDateTime(date, (d) => d[method](args[0]));
    const [value = 0, unit = 'minutes'] = args;
    return onDateTime(date, (d) => d[method](duration(value, unit)));
  };
}

function extract(date, [part = 'week']) {
  if (part === 'yearDayNumber') {
    const d = isDateTime(date) ? date.toJSDate() : date;
    const first = new Date(d.getFullYear(), 0, 0);
    const diff = d.getTime() - first.getTime() + (first.getTimezoneOffset() - d.getTimezoneOffset()) * 60 * 1000;
    return Math.floor(diff / (1000 * 60 * 60 * 24));
  }
  const unit = part === 'week' ? 'weekNumber' : DATETIME_UNIT_MAP[part] || part;
  return asDateTime(date).get(unit);
}

function isBetween(date, args) {
  if (args.length !== 2) throw new ExpressionExtensionError('isBetween(): expected exactly two args');
  const first = convertToDateTime(args[0]);
  const second = convertToDateTime(args[1]);
  if (!first || !second) return undefined;
  if (first > second) return second < date && date < first;
  return second > date && date > first;
}

function diffTo(date, [other, unit = 'days']) {
  let units = Array.isArray(unit) ? unit : [unit];
  if (units.length === 0) units = ['days'];
  const bad = units.find((u) => !DURATION_UNITS.includes(u) && !DATE_PARTS.includes(u));
  if (bad) {
    throw new ExpressionExtensionError(
      `Unsupported unit '${String(bad)}'. Supported: ${DURATION_UNITS.map((u) => `'${u}'`).join(', ')}.`,
    );
  }
  const result = date.diff(toDateTimeArg(other), units);
  return units.length > 1 ? result.toObject() : result.as(units[0]);
}

function isInLast(date, [value = 0, unit = 'minutes']) {
  const { DateTime } = luxon();
  const since = DateTime.now().minus(duration(value, unit));
  const d = asDateTime(date);
  return since <= d && d <= DateTime.now();
}

function toMillis(date) {
  return isDateTime(date) ? date.toMillis() : date.getTime();
}

export const dateFunctions = {
  beginningOf: (date, [raw = 'week']) => onDateTime(date, (d) => d.startOf(DATETIME_UNIT_MAP[raw] || raw)),
  endOfMonth: (date) => onDateTime(date, (d) => d.endOf('month')),
  extract,
  isBetween,
  isDst: (date) => asDateTime(date).isInDST,
  isInLast,
  isWeekend: (date) => [6, 7].includes(asDateTime(date).weekday),
  minus: shift('minus'),
  plus: shift('plus'),
  format: (date, [fmt, localeOpts = {}]) => asDateTime(date).toFormat(fmt, { ...localeOpts }),
  toDateTime: (date) => toDateTimeArg(date),
  diffTo,
  diffToNow: (date, [unit]) => diffTo(date, [luxon().DateTime.now(), unit]),
  toInt: toMillis,
  toFloat: toMillis,
  toBoolean: () => undefined,
  isEmpty: () => false,
  isNotEmpty: () => true,
};
