// Locale bundle ja (loaded on demand, see ../luxon/locales.js).
import '@formatjs/intl-pluralrules/locale-data/ja.js';
import '@formatjs/intl-numberformat/locale-data/ja.js';
import '@formatjs/intl-datetimeformat/locale-data/ja.js';
import '@formatjs/intl-listformat/locale-data/ja.js';
