// Entry of the core bundle loaded into every QuickJS context of Weft's expression sandbox: the `$`-variables,
// the extension methods and jmespath (from npm, see ../package.json). Luxon and the Intl polyfill are a second
// bundle (./luxon/index.js), loaded on first use (./runtime/luxon.js). Everything under src/ is Weft's own code.
import { installExtensions } from './extensions/index.js';
import { installGlobals } from './runtime/globals.js';
import { installLuxonTraps } from './runtime/luxon.js';
import { api } from './runtime/api.js';

installExtensions();
installGlobals();
installLuxonTraps();
globalThis.__weft = api;
