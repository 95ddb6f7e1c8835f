// `$execution.customData`: string key/values kept with the execution (n8n limits: 50 keys, 50/255 chars).
import { S, fail } from './state.js';

function setOne(key, value) {
  const k = String(key).slice(0, 50);
  if (!(k in S.customData) && Object.keys(S.customData).length >= 50) {
    fail('Custom data can only contain up to 50 items');
  }
  S.customData[k] = String(value).slice(0, 255);
  S.customDirty = true;
}

export const customDataApi = {
  set(key, value) {
    setOne(key, value);
  },
  setAll(obj) {
    for (const [k, v] of Object.entries(obj || {})) setOne(k, v);
  },
  get(key) {
    return S.customData[key];
  },
  getAll() {
    return { ...S.customData };
  },
};
