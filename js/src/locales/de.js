// Locale bundle de (loaded on demand, see ../luxon/locales.js).
import '@formatjs/intl-pluralrules/locale-data/de.js';
import '@formatjs/intl-numberformat/locale-data/de.js';
import '@formatjs/intl-datetimeformat/locale-data/de.js';
import '@formatjs/intl-listformat/locale-data/de.js';
