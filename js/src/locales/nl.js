// Locale bundle nl (loaded on demand, see ../luxon/locales.js).
import '@formatjs/intl-pluralrules/locale-data/nl.js';
import '@formatjs/intl-numberformat/locale-data/nl.js';
import '@formatjs/intl-datetimeformat/locale-data/nl.js';
import '@formatjs/intl-listformat/locale-data/nl.js';
