// Locale bundle sv (loaded on demand, see ../luxon/locales.js).
import '@formatjs/intl-pluralrules/locale-data/sv.js';
import '@formatjs/intl-numberformat/locale-data/sv.js';
import '@formatjs/intl-datetimeformat/locale-data/sv.js';
import '@formatjs/intl-listformat/locale-data/sv.js';
