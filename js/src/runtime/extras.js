// The helpers of hash() and replaceSpecialChars() live in their own bundle (../extras/index.js), asked for from the
// host (a need of kind `bundle`) the first time an expression calls one of them.
import { need } from './state.js';

const X = { lib: null };

/** jssha, md5 and transliterate; asks the host for the bundle when it is not loaded yet. */
export function extras() {
  if (X.lib === null) need(['bundle', 'extras']);
  return X.lib;
}

export function installExtras(lib) {
  X.lib = lib;
}
