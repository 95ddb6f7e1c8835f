// Locale bundle es (loaded on demand, see ../luxon/locales.js).
import '@formatjs/intl-pluralrules/locale-data/es.js';
import '@formatjs/intl-numberformat/locale-data/es.js';
import '@formatjs/intl-datetimeformat/locale-data/es.js';
import '@formatjs/intl-listformat/locale-data/es.js';
