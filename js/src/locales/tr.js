// Locale bundle tr (loaded on demand, see ../luxon/locales.js).
import '@formatjs/intl-pluralrules/locale-data/tr.js';
import '@formatjs/intl-numberformat/locale-data/tr.js';
import '@formatjs/intl-datetimeformat/locale-data/tr.js';
import '@formatjs/intl-listformat/locale-data/tr.js';
