// Entry of the bundle loaded into every QuickJS context of Weft's expression sandbox.
// Third-party code (Intl polyfill, Luxon, jmespath) comes from npm (see ../package.json);
// everything under src/ is Weft's own code.
import '@formatjs/intl-getcanonicallocales/polyfill-force.js';
import '@formatjs/intl-locale/polyfill-force.js';
import '@formatjs/intl-pluralrules/polyfill-force.js';
import '@formatjs/intl-pluralrules/locale-data/en.js';
import '@formatjs/intl-numberformat/polyfill-force.js';
import '@formatjs/intl-numberformat/locale-data/en.js';
import '@formatjs/intl-datetimeformat/polyfill-force.js';
import '@formatjs/intl-datetimeformat/locale-data/en.js';
import '@formatjs/intl-datetimeformat/add-all-tz.js';

import { installExtensions } from './extensions/index.js';
import { installGlobals } from './runtime/globals.js';
import { api } from './runtime/api.js';

installExtensions();
installGlobals();
globalThis.__weft = api;
