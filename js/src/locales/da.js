// Locale bundle da (loaded on demand, see ../luxon/locales.js).
import '@formatjs/intl-pluralrules/locale-data/da.js';
import '@formatjs/intl-numberformat/locale-data/da.js';
import '@formatjs/intl-datetimeformat/locale-data/da.js';
import '@formatjs/intl-listformat/locale-data/da.js';
