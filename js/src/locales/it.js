// Locale bundle it (loaded on demand, see ../luxon/locales.js).
import '@formatjs/intl-pluralrules/locale-data/it.js';
import '@formatjs/intl-numberformat/locale-data/it.js';
import '@formatjs/intl-datetimeformat/locale-data/it.js';
import '@formatjs/intl-listformat/locale-data/it.js';
