// Locale bundle cs (loaded on demand, see ../luxon/locales.js).
import '@formatjs/intl-pluralrules/locale-data/cs.js';
import '@formatjs/intl-numberformat/locale-data/cs.js';
import '@formatjs/intl-datetimeformat/locale-data/cs.js';
import '@formatjs/intl-listformat/locale-data/cs.js';
