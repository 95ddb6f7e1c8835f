// Locale bundle ko (loaded on demand, see ../luxon/locales.js).
import '@formatjs/intl-pluralrules/locale-data/ko.js';
import '@formatjs/intl-numberformat/locale-data/ko.js';
import '@formatjs/intl-datetimeformat/locale-data/ko.js';
import '@formatjs/intl-listformat/locale-data/ko.js';
