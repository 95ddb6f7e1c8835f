// Locale data beyond English comes in small bundles (../locales/<tag>.js, one per locale), loaded on demand:
// the Intl constructors and the toLocale*String methods ask the host for a locale's bundle the first time they
// are given it (a need of kind `locale`, like any other data the sandbox does not have).
export const AVAILABLE_LOCALES = [
  'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'sv', 'da', 'nb', 'fi', 'cs', 'ru', 'uk', 'tr', 'ja', 'zh', 'ko',
  'en-GB', 'pt-PT',
];

const loaded = new Set(['en']);

function bundleFor(tag) {
  if (AVAILABLE_LOCALES.includes(tag)) return tag;
  const language = tag.split('-')[0];
  return AVAILABLE_LOCALES.includes(language) ? language : null;
}

function ensureLocales(locales) {
  if (locales === undefined || locales === null) return;
  let tags;
  try {
    tags = Intl.getCanonicalLocales(locales);
  } catch {
    return; // the constructor reports the bad tag itself
  }
  for (const tag of tags) {
    const bundle = bundleFor(tag);
    if (bundle !== null && !loaded.has(bundle)) {
      loaded.add(bundle);
      globalThis.__weft.needLocale(bundle);
    }
  }
}

function trapConstructor(name) {
  const original = Intl[name];
  Intl[name] = new Proxy(original, {
    construct(target, args, newTarget) {
      ensureLocales(args[0]);
      return Reflect.construct(target, args, newTarget === Intl[name] ? target : newTarget);
    },
    apply(target, thisArg, args) {
      ensureLocales(args[0]);
      return Reflect.apply(target, thisArg, args);
    },
  });
}

function trapMethod(proto, name) {
  const original = proto[name];
  Object.defineProperty(proto, name, {
    value: function toLocale(locales, options) {
      ensureLocales(locales);
      return original.call(this, locales, options);
    },
    writable: true,
    configurable: true,
    enumerable: false,
  });
}

export function installLocaleTraps() {
  for (const name of ['NumberFormat', 'DateTimeFormat', 'PluralRules', 'ListFormat']) trapConstructor(name);
  trapMethod(Number.prototype, 'toLocaleString');
  for (const name of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']) trapMethod(Date.prototype, name);
}
