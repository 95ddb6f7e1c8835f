// Locale bundle pt-PT (loaded on demand, see ../luxon/locales.js).
import '@formatjs/intl-pluralrules/locale-data/pt-PT.js';
import '@formatjs/intl-numberformat/locale-data/pt-PT.js';
import '@formatjs/intl-datetimeformat/locale-data/pt-PT.js';
import '@formatjs/intl-listformat/locale-data/pt-PT.js';
