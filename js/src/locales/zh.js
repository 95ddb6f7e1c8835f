// Locale bundle zh (loaded on demand, see ../luxon/locales.js).
import '@formatjs/intl-pluralrules/locale-data/zh.js';
import '@formatjs/intl-numberformat/locale-data/zh.js';
import '@formatjs/intl-datetimeformat/locale-data/zh.js';
import '@formatjs/intl-listformat/locale-data/zh.js';
