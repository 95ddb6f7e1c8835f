// Locale bundle pt (loaded on demand, see ../luxon/locales.js).
import '@formatjs/intl-pluralrules/locale-data/pt.js';
import '@formatjs/intl-numberformat/locale-data/pt.js';
import '@formatjs/intl-datetimeformat/locale-data/pt.js';
import '@formatjs/intl-listformat/locale-data/pt.js';
