import { luxon } from '../runtime/luxon.js';
import { ExpressionExtensionError } from './errors.js';

const EMAIL = /(?:[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*|"(?:[\x01-\x08\x0b\x0c\x0e-\x1f\x21\x23-\x5b\x5d-\x7f]|\\[\x01-\x09\x0b\x0c\x0e-\x7f])*")@(?:(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?|\[(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?|[a-z0-9-]*[a-z0-9]:(?:[\x01-\x08\x0b\x0c\x0e-\x1f\x21-\x5a\x53-\x7f]|\\[\x01-\x09\x0b\x0c\x0e-\x7f])+)\])/i;
const URL_RE = /(?:https?:\/\/|www\.)[-a-zA-Z0-9@:%._+~#=]{1,256}\.[a-zA-Z0-9()]{1,6}\b[-a-zA-Z0-9()@:%_+.~#?&/=]*/;
const DOMAIN = /^(?:(?:https?:\/\/)?(?:www\.)?)?((?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,})(?::\d+)?(?:\/.*)?$/;
const SMALL_WORDS = /^(a|an|and|as|at|but|by|en|for|if|in|nor|of|on|or|per|the|to|v\.?|vs\.?|via)$/i;

const CHAR_MAP = {
  à: 'a', á: 'a', â: 'a', ã: 'a', ä: 'a', å: 'a', æ: 'ae', ç: 'c', è: 'e', é: 'e', ê: 'e', ë: 'e',
  ì: 'i', í: 'i', î: 'i', ï: 'i', ñ: 'n', ò: 'o', ó: 'o', ô: 'o', õ: 'o', ö: 'o', ø: 'o', ù: 'u',
  ú: 'u', û: 'u', ü: 'u', ý: 'y', ÿ: 'y', ß: 'ss', œ: 'oe',
};

function utf8ToBinary(s) {
  return unescape(encodeURIComponent(s));
}

// QuickJS has no URL class: a small parser for what the extensions need.
const URL_PARTS = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/?#]*@)?([^/?#:]+)(?::(\d+))?([^?#]*)(\?[^#]*)?(#.*)?$/i;

export function parseUrl(s) {
  const m = URL_PARTS.exec(String(s).trim());
  if (!m) return null;
  return { protocol: m[1].toLowerCase() + ':', hostname: m[2].toLowerCase(), port: m[3] || '', pathname: m[4] || '/', search: m[5] || '', hash: m[6] || '' };
}

function isUrl(s) {
  const url = parseUrl(s);
  return url !== null && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
}

function toNumber(s) {
  const value = Number(String(s).replace(/\s/g, ''));
  if (isNaN(value)) throw new ExpressionExtensionError('cannot convert to number');
  return value;
}

function words(s) {
  return String(s)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

export function parseDateString(s, opts) {
  const { DateTime } = luxon();
  for (const parse of [DateTime.fromISO, DateTime.fromHTTP, DateTime.fromRFC2822, DateTime.fromSQL]) {
    const dt = parse(s, opts);
    if (dt.isValid) return dt;
  }
  const ms = Date.parse(s);
  if (!isNaN(ms)) return DateTime.fromMillis(ms, opts);
  return DateTime.invalid('invalid input');
}

export const stringExtensions = {
  isEmpty() {
    return this.length === 0;
  },
  isNotEmpty() {
    return this.length > 0;
  },
  isBlank() {
    return this.trim().length === 0;
  },
  isEmail() {
    const s = String(this);
    return EMAIL.test(s) && EMAIL.exec(s)[0] === s;
  },
  isUrl() {
    return isUrl(String(this));
  },
  isDomain() {
    return DOMAIN.test(String(this));
  },
  isNumeric() {
    const s = String(this).trim();
    return s !== '' && !isNaN(Number(s)) && !isNaN(parseFloat(s));
  },
  extractEmail() {
    const m = EMAIL.exec(String(this));
    return m ? m[0] : undefined;
  },
  extractUrl() {
    const m = URL_RE.exec(String(this));
    return m ? m[0] : undefined;
  },
  extractDomain() {
    const s = String(this);
    if (EMAIL.test(s) && s.includes('@')) return s.split('@').pop().replace(/>.*$/, '');
    const url = parseUrl(s);
    if (url !== null) return url.hostname;
    const m = DOMAIN.exec(s);
    return m ? m[1] : undefined;
  },
  extractUrlPath() {
    const url = parseUrl(String(this));
    return url === null ? undefined : url.pathname;
  },
  removeTags() {
    return String(this).replace(/<[^>]*>?/gm, '');
  },
  removeMarkdown() {
    return String(this)
      .replace(/^#{1,6}\s*/gm, '')
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/(\*\*|__)(.*?)\1/g, '$2')
      .replace(/(\*|_)(.*?)\1/g, '$2')
      .replace(/~~(.*?)~~/g, '$1')
      .replace(/`{1,3}([^`]*)`{1,3}/g, '$1')
      .replace(/^\s*>\s?/gm, '')
      .replace(/^\s*[-*+]\s+/gm, '');
  },
  replaceSpecialChars() {
    return String(this).replace(/[^\u0000-\u007E]/g, (c) => CHAR_MAP[c] ?? CHAR_MAP[c.toLowerCase()]?.toUpperCase() ?? c);
  },
  quote(mark = '"') {
    return `${mark}${String(this).replace(new RegExp(mark, 'g'), '\\' + mark)}${mark}`;
  },
  urlEncode(entireString = false) {
    return entireString ? encodeURI(String(this)) : encodeURIComponent(String(this));
  },
  urlDecode(entireString = false) {
    return entireString ? decodeURI(String(this)) : decodeURIComponent(String(this));
  },
  base64Encode() {
    return btoa(utf8ToBinary(String(this)));
  },
  base64Decode() {
    return decodeURIComponent(escape(atob(String(this))));
  },
  parseJson() {
    try {
      return JSON.parse(String(this));
    } catch {
      throw new ExpressionExtensionError('could not parse JSON');
    }
  },
  toJsonString() {
    return JSON.stringify(String(this));
  },
  toBoolean() {
    const s = String(this).trim().toLowerCase();
    return !['', 'false', 'no', '0', 'n', 'off', 'f'].includes(s);
  },
  toNumber() {
    return toNumber(this);
  },
  toFloat() {
    return toNumber(this);
  },
  toDecimalNumber() {
    return toNumber(this);
  },
  toInt() {
    const n = parseInt(String(this).replace(/\s/g, ''), 10);
    if (isNaN(n)) throw new ExpressionExtensionError('cannot convert to integer');
    return n;
  },
  toWholeNumber() {
    return stringExtensions.toInt.call(this);
  },
  toDateTime(format) {
    const s = String(this);
    const dt = format ? luxon().DateTime.fromFormat(s, format) : parseDateString(s);
    if (!dt.isValid) throw new ExpressionExtensionError('cannot convert to Luxon DateTime');
    return dt;
  },
  toDate() {
    const d = new Date(String(this));
    if (isNaN(d.getTime())) throw new ExpressionExtensionError('cannot convert to date');
    return d;
  },
  toTitleCase() {
    return String(this)
      .split(/(\s+)/)
      .map((w, i, all) => {
        if (/^\s+$/.test(w) || w === '') return w;
        if (i !== 0 && i !== all.length - 1 && SMALL_WORDS.test(w)) return w.toLowerCase();
        return w.charAt(0).toUpperCase() + w.slice(1).toLowerCase();
      })
      .join('');
  },
  toSentenceCase() {
    const s = String(this).toLowerCase();
    return s.replace(/(^\s*\p{L}|[.!?]\s+\p{L})/gu, (m) => m.toUpperCase());
  },
  toSnakeCase() {
    return words(this).map((w) => w.toLowerCase()).join('_');
  },
  toCamelCase() {
    return words(this)
      .map((w, i) => (i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()))
      .join('');
  },
  toKebabCase() {
    return words(this).map((w) => w.toLowerCase()).join('-');
  },
};
