// Locale bundle en-GB (loaded on demand, see ../luxon/locales.js).
import '@formatjs/intl-numberformat/locale-data/en-GB.js';
import '@formatjs/intl-datetimeformat/locale-data/en-GB.js';
import '@formatjs/intl-listformat/locale-data/en-GB.js';
