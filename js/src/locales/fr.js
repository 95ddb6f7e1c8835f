// Locale bundle fr (loaded on demand, see ../luxon/locales.js).
import '@formatjs/intl-pluralrules/locale-data/fr.js';
import '@formatjs/intl-numberformat/locale-data/fr.js';
import '@formatjs/intl-datetimeformat/locale-data/fr.js';
import '@formatjs/intl-listformat/locale-data/fr.js';
