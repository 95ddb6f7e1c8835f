// Entry of the "extras" bundle: the helpers of the string extensions hash() and replaceSpecialChars() (jssha, md5,
// transliteration, from npm). Loaded into a context the first time one of them runs (../runtime/extras.js).
import JsSha from 'jssha';
import md5 from 'md5';
import { transliterate } from 'transliteration';

globalThis.__weft.installExtras({ JsSha, md5, transliterate });
