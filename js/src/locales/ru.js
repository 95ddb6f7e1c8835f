// Locale bundle ru (loaded on demand, see ../luxon/locales.js).
import '@formatjs/intl-pluralrules/locale-data/ru.js';
import '@formatjs/intl-numberformat/locale-data/ru.js';
import '@formatjs/intl-datetimeformat/locale-data/ru.js';
import '@formatjs/intl-listformat/locale-data/ru.js';
