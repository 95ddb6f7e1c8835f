// Entry of the second bundle: the Intl polyfill and Luxon, loaded into a context the first time an expression
// needs them (see ../runtime/luxon.js). Third-party code comes from npm (see ../../package.json).
import './untrap.js';
import '@formatjs/intl-getcanonicallocales/polyfill-force.js';
import '@formatjs/intl-locale/polyfill-force.js';
import '@formatjs/intl-pluralrules/polyfill-force.js';
import '@formatjs/intl-pluralrules/locale-data/en.js';
import '@formatjs/intl-numberformat/polyfill-force.js';
import '@formatjs/intl-numberformat/locale-data/en.js';
import '@formatjs/intl-datetimeformat/polyfill-force.js';
import '@formatjs/intl-datetimeformat/locale-data/en.js';
import '@formatjs/intl-datetimeformat/add-all-tz.js';
import '@formatjs/intl-listformat/polyfill-force.js';
import '@formatjs/intl-listformat/locale-data/en.js';
import { DateTime, Duration, Interval, Settings } from 'luxon';
import { installLocaleTraps } from './locales.js';

installLocaleTraps();
globalThis.__weft.installLuxon({ DateTime, Duration, Interval, Settings });
