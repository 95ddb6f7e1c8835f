// Locale bundle uk (loaded on demand, see ../luxon/locales.js).
import '@formatjs/intl-pluralrules/locale-data/uk.js';
import '@formatjs/intl-numberformat/locale-data/uk.js';
import '@formatjs/intl-datetimeformat/locale-data/uk.js';
import '@formatjs/intl-listformat/locale-data/uk.js';
