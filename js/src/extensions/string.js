// n8n's string extensions (packages/workflow/src/extensions/string-extensions.ts), behaviour for behaviour:
// the same patterns, the same third-party helpers (title-case, transliteration, jssha, md5, js-base64, from npm)
// and the same error messages. The hash and transliteration helpers live in a bundle loaded on first use.
import { fromBase64, toBase64 } from 'js-base64';
import { titleCase } from 'title-case';
import { extras } from '../runtime/extras.js';
import { luxon } from '../runtime/luxon.js';
import { CURRENCY } from './currency.js';
import { numberToDateTime } from './number.js';
import { ExpressionExtensionError } from './errors.js';

const HOST = String.raw`((?:(?:[-\w]+\.)+(?:[a-zA-Z]{2,}|xn--[a-zA-Z0-9]+)|localhost|\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}))`;
const DOMAIN_EXTRACT = new RegExp(
  String.raw`^(?:(?:https?|ftp):\/\/)?(?:mailto:)?(?:\/\/)?((?:www\.)?(?:(?:[-\w]+\.)+(?:[a-zA-Z]{2,}|xn--[a-zA-Z0-9]+)|localhost|\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}))(?::\d+)?(?:\/[^\s?]*)?(?:\?[^\s#]*)?(?:#[^\s]*)?$`,
  'i',
);
const DOMAIN = new RegExp(
  String.raw`^(?:www\.)?` + HOST + String.raw`(?::\d+)?(?:\/[^\s?]*)?(?:\?[^\s#]*)?(?:#[^\s]*)?$`,
  'i',
);
const EMAIL =
  /(([^<>()\[\]\\.,;:\s@"]+(\.[^<>()\[\]\\.,;:\s@"]+)*)|(".+"))@(?<domain>(\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}])|(([a-zA-Z\-0-9]+\.)+[a-zA-Z]{2,}))/;
const URL_BODY =
  String.raw`(?:(?:https?|ftp):\/\/)(?:www\.)?` + HOST + String.raw`(?::\d+)?(?:\/[^\s?#]*)?(?:\?[^\s#]*)?(?=([^\s]+#.*)?)#?[^\s]*`;
const URL_EXACT = new RegExp('^' + URL_BODY + '$', 'i');
const URL_ANYWHERE = new RegExp(URL_BODY, 'i');
const LETTER = /\p{L}/u;
const SENTENCE_END = /[!?.]/;
const SNAKE_DROP = /[\u2000-\u206F\u2E00-\u2E7F\\'!"#$%&()*+,./:;<=>?@[\]^`{|}~]/g;
const HASHES = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'sha3'];
const SHA_VARIANTS = {
  sha1: 'SHA-1',
  sha224: 'SHA-224',
  sha256: 'SHA-256',
  sha384: 'SHA-384',
  sha512: 'SHA-512',
  sha3: 'SHA3-512',
};
const FALSY = ['false', 'no', '0'];

// QuickJS has no URL class: the WHATWG parser's pathname for what extractUrlPath sees.
const URL_PARTS = /^([a-z][a-z0-9+.-]*):(\/\/(?:[^@/?#]*@)?[^/?#]*)?([^?#]*)/i;

function urlPathname(s) {
  const m = URL_PARTS.exec(s.trim());
  if (!m) return undefined;
  const special = /^(https?|ftp|wss?|file)$/i.test(m[1]);
  if (special && m[2] === undefined) return undefined;
  if (special && !/^\/\/[^/?#]+/.test(m[2])) return undefined;
  const path = m[3];
  return special ? path.replace(/\\/g, '/') || '/' : path;
}

/** n8n's `tryToParseDateTime`: ISO, HTTP, RFC 2822, SQL, then `Date.parse`, keeping a given offset. */
export function parseDateString(value, zone) {
  const { DateTime } = luxon();
  const s = String(value).trim();
  const opts = { zone, setZone: true };
  for (const parse of [DateTime.fromISO, DateTime.fromHTTP, DateTime.fromRFC2822, DateTime.fromSQL]) {
    const dt = parse.call(DateTime, s, opts);
    if (dt.isValid) return dt;
  }
  const dt = DateTime.fromMillis(Date.parse(s), { zone });
  if (dt.isValid) return dt;
  throw new ExpressionExtensionError('Value is not a valid date');
}

function stripCurrency(s) {
  return s.replace(CURRENCY, '');
}

function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function sentenceCase(value) {
  let current = value.slice();
  let buffer = '';
  while (LETTER.test(current)) {
    const at = current.search(LETTER);
    current = current.slice(0, at) + current[at].toLocaleUpperCase() + current.slice(at + 1).toLocaleLowerCase();
    const end = current.search(SENTENCE_END);
    if (end === -1) {
      buffer += current;
      current = '';
      break;
    }
    buffer += current.slice(0, end + 1);
    current = current.slice(end + 1);
  }
  return buffer + current;
}

function removeMarkdown(value) {
  return value
    .replace(/^([\s\t]*)([*\-+]|\d\.)\s+/gm, '$1')
    .replace(/\n={2,}/g, '\n')
    .replace(/~~/g, '')
    .replace(/`{3}.*\n/g, '')
    .replace(/<[\w|\s|=|'|"|:|(|)|,|;|/|0-9|.|-]+[>|\\>]/g, '')
    .replace(/^[=-]{2,}\s*$/g, '')
    .replace(/\[\^.+?\](: .*?$)?/g, '')
    .replace(/\s{0,2}\[.*?\]: .*?$/g, '')
    .replace(/!\[.*?\][[(].*?[\])]/g, '')
    .replace(/\[(.*?)\][[(].*?[\])]/g, '$1')
    .replace(/>/g, '')
    .replace(/^\s{1,2}\[(.*?)\]: (\S+)( ".*?")?\s*$/g, '')
    .replace(/^#{1,6}\s*([^#]*)\s*(#{1,6})?/gm, '$1')
    .replace(/([*_]{1,3})(\S.*?\S)\1/g, '$2')
    .replace(/(`{3,})(.*?)\1/gm, '$2')
    .replace(/^-{3,}\s*$/g, '')
    .replace(/`(.+?)`/g, '$1')
    .replace(/\n{2,}/g, '\n\n');
}

function hash(value, algorithm) {
  const name = algorithm === undefined || algorithm === null ? 'md5' : String(algorithm).toLowerCase();
  if (name === 'base64') return toBase64(value);
  if (!HASHES.includes(name)) {
    throw new ExpressionExtensionError(
      `Unknown algorithm ${algorithm}. Available algorithms are: ${HASHES.join()}, and Base64.`,
    );
  }
  const lib = extras();
  if (name === 'md5') return lib.md5(value);
  return new lib.JsSha(SHA_VARIANTS[name], 'TEXT').update(value).getHash('HEX');
}

function toNumberOrThrow(value, convert, message) {
  const n = convert(value);
  if (isNaN(n)) throw new ExpressionExtensionError(message);
  return n;
}

function toInt(value, radix) {
  return toNumberOrThrow(value, (s) => parseInt(stripCurrency(s), radix), 'cannot convert to integer');
}

function toFloat(value) {
  if (value.includes(',')) throw new ExpressionExtensionError('cannot convert to float, expected . as decimal separator');
  return toNumberOrThrow(value, (s) => parseFloat(stripCurrency(s)), 'cannot convert to float');
}

function toNumber(value) {
  return toNumberOrThrow(value, (s) => Number(stripCurrency(s)), 'cannot convert to number');
}

function isEmail(value) {
  return EMAIL.test(value) && !value.includes(' ');
}

function toDateTime(value, format) {
  try {
    if (format) {
      if (['ms', 's', 'us', 'excel'].includes(format)) return numberToDateTime(Number(value), [format]);
      return luxon().DateTime.fromFormat(value, format);
    }
    return parseDateString(value);
  } catch (e) {
    if (e instanceof ExpressionExtensionError || e instanceof TypeError) {
      throw new ExpressionExtensionError('cannot convert to Luxon DateTime');
    }
    throw e;
  }
}

function toDate(value) {
  const date = new Date(Date.parse(value));
  if (isNaN(date.getTime())) throw new ExpressionExtensionError('cannot convert to date');
  if (!/:/.test(value)) date.setHours(0, 0, 0);
  return date;
}

function parseJson(value) {
  try {
    return JSON.parse(value);
  } catch {
    if (value.includes("'")) throw new ExpressionExtensionError("Parsing failed. Check you're using double quotes");
    throw new ExpressionExtensionError('Parsing failed');
  }
}

/** The functions by name, each `(value, ...args)` with `value` a primitive string. */
const functions = {
  hash,
  removeMarkdown,
  removeTags: (v) => v.replace(/<[^>]*>?/gm, ''),
  toDate,
  toDateTime,
  toBoolean: (v) => {
    const s = v.toLowerCase();
    return s.length > 0 && !FALSY.includes(s);
  },
  toDecimalNumber: toFloat,
  toNumber,
  toFloat,
  toInt,
  toWholeNumber: toInt,
  toSentenceCase: sentenceCase,
  toSnakeCase: (v) => v.toLocaleLowerCase().replace(/[ -]/g, '_').replace(SNAKE_DROP, ''),
  toTitleCase: (v) => titleCase(v),
  urlDecode: (v, entire = false) => (entire ? decodeURI(v) : decodeURIComponent(v)),
  urlEncode: (v, entire = false) => (entire ? encodeURI(v) : encodeURIComponent(v)),
  quote: (v, mark = '"') => `${mark}${v.replace(/\\/g, '\\\\').split(mark).join(`\\${mark}`)}${mark}`,
  replaceSpecialChars: (v) => extras().transliterate(v, { unknown: '?' }),
  length: (v) => v.length,
  isDomain: (v) => DOMAIN.test(v),
  isEmail,
  isNumeric: (v) => !v.includes(' ') && !isNaN(v) && !isNaN(parseFloat(v)),
  isUrl: (v) => URL_EXACT.test(v),
  isEmpty: (v) => v === '',
  isNotEmpty: (v) => v !== '',
  toJsonString: (v) => JSON.stringify(v),
  extractEmail: (v) => {
    const m = EMAIL.exec(v);
    return m ? m[0] : undefined;
  },
  extractDomain: (v) => {
    if (isEmail(v)) return EMAIL.exec(v)?.groups?.domain;
    const m = v.match(DOMAIN_EXTRACT);
    return m ? m[1] : undefined;
  },
  extractUrl: (v) => {
    const m = URL_ANYWHERE.exec(v);
    return m ? m[0] : undefined;
  },
  extractUrlPath: (v) => urlPathname(v),
  parseJson,
  base64Encode: (v) => toBase64(v),
  base64Decode: (v) => fromBase64(v),
};

/** n8n's calling convention: `(value, args)`. */
export const stringFunctions = Object.fromEntries(
  Object.entries(functions).map(([name, fn]) => [name, (value, args) => fn(value, ...args)]),
);
