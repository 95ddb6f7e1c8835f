// Locale bundle fi (loaded on demand, see ../luxon/locales.js).
import '@formatjs/intl-pluralrules/locale-data/fi.js';
import '@formatjs/intl-numberformat/locale-data/fi.js';
import '@formatjs/intl-datetimeformat/locale-data/fi.js';
import '@formatjs/intl-listformat/locale-data/fi.js';
