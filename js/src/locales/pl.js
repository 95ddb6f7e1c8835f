// Locale bundle pl (loaded on demand, see ../luxon/locales.js).
import '@formatjs/intl-pluralrules/locale-data/pl.js';
import '@formatjs/intl-numberformat/locale-data/pl.js';
import '@formatjs/intl-datetimeformat/locale-data/pl.js';
import '@formatjs/intl-listformat/locale-data/pl.js';
