"""n8n's DateTimeV2 ``execute()`` and ``parseDate()`` as JavaScript, run in the sandbox on the expressions' Luxon.

``__PARAMS__`` is replaced by ``{op, tz, localZone, items: [the operation's parameters per item]}``; the program
returns one item per input item: ``{set, value}`` or ``{error}``.
"""

PROGRAM = r"""
// n8n's DateTimeV2 execute() and parseDate(), run in the sandbox on its Luxon (the expressions' DateTime).
// __PARAMS__: {op, tz, localZone, items: [{...the operation's parameters for that item}]}.
const P = __PARAMS__;
// moment(text).toISOString(): ISO 8601 (T or space), RFC 2822, then the Date constructor; local: the host zone.
const momentISO = (text) => {
  if (text === undefined) return DateTime.now().toUTC().toISO();  // moment(undefined) is now
  const local = { zone: P.localZone };
  const trimmed = String(text).trim();
  let parsed = DateTime.fromISO(trimmed.replace(/^([+-]?\d{4,6}-\S+?) (\d)/, '$1T$2'), local);
  if (!parsed.isValid) parsed = DateTime.fromRFC2822(trimmed, local);
  if (!parsed.isValid) {
    const fallback = new Date(trimmed);
    if (!Number.isNaN(fallback.getTime())) parsed = DateTime.fromJSDate(fallback);
  }
  return parsed.isValid ? parsed.toUTC().toISO() : null;
};
const failure = (message) => Object.assign(new Error(message), { n8n: true });
const parseDate = (date, options = {}) => {
  if (date instanceof DateTime) return date;
  if (!Number.isNaN(Number(date)) && !options.fromFormat) {
    date = Number(date);
    if (!Number.isInteger(date)) date = date * 1000;
  }
  let timezone = options.timezone;
  let parsed;
  if (Number.isInteger(date)) {
    parsed = date.toString().length < 12 ? DateTime.fromSeconds(date) : DateTime.fromMillis(date);
  } else {
    if (!timezone && date.includes('+')) timezone = `Etc/GMT-${date.split('+')[1].slice(0, 2) * 1}`;
    parsed = options.fromFormat ? DateTime.fromFormat(date, options.fromFormat) : DateTime.fromISO(momentISO(date));
  }
  parsed = parsed.setZone(timezone || 'Etc/UTC');
  if (parsed.invalidReason === 'unparsable') throw failure('Invalid date format');
  return parsed;
};
const run = (p) => {
  const tz = P.tz;
  switch (P.op) {
    case 'getCurrentDate': {
      const zone = p.timezone ? p.timezone : tz;
      if (DateTime.now().setZone(zone).invalidReason === 'unsupported zone') {
        throw failure(`The timezone ${zone} is not valid. Please check the timezone.`);
      }
      const now = DateTime.now().setZone(zone);
      return (p.includeTime ? now : now.startOf('day')).toString();
    }
    case 'addToDate':
      return parseDate(p.magnitude, { timezone: tz }).plus({ [p.timeUnit]: p.duration }).toString();
    case 'subtractFromDate':
      return parseDate(p.magnitude, { timezone: tz }).minus({ [p.timeUnit]: p.duration }).toString();
    case 'formatDate': {
      if (p.date === null || p.date === undefined) return p.date;
      const parsed = parseDate(p.date, { timezone: p.timezone ? tz : undefined, fromFormat: p.fromFormat });
      return parsed.toFormat(p.format === 'custom' ? p.customFormat : p.format);
    }
    case 'roundDate': {
      const parsed = parseDate(p.date, { timezone: tz });
      if (p.mode === 'roundDown') return parsed.startOf(p.toNearest).toString();
      if (p.mode === 'roundUp') return parsed.plus({ [p.to]: 1 }).startOf(p.to).toString();
      return undefined;
    }
    case 'getTimeBetweenDates': {
      const start = parseDate(p.startDate, { timezone: tz });
      const end = parseDate(p.endDate, { timezone: tz });
      const duration = end.diff(start, p.units);
      return p.isoString ? duration.toString() : duration.toObject();
    }
    case 'extractDate': {
      const parsed = parseDate(p.date, { timezone: tz });
      return p.part === 'week' ? parsed.weekNumber : parsed.get(p.part);
    }
    default:
      return undefined;
  }
};
return P.items.map((p) => {
  for (const key of p.__undefined) p[key] = undefined;
  for (const [key, zone] of Object.entries(p.__zones)) p[key] = DateTime.fromISO(p[key], { zone });
  try {
    const value = run(p);
    return { json: { set: value !== undefined, value: value === undefined ? null : value } };
  } catch (error) {
    return { json: { error: String(error && error.message !== undefined ? error.message : error) } };
  }
});
"""

__all__ = ["PROGRAM"]
