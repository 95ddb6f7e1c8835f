// Locale bundle nb (loaded on demand, see ../luxon/locales.js).
import '@formatjs/intl-pluralrules/locale-data/nb.js';
import '@formatjs/intl-numberformat/locale-data/nb.js';
import '@formatjs/intl-datetimeformat/locale-data/nb.js';
import '@formatjs/intl-listformat/locale-data/nb.js';
