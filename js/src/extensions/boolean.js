export const booleanExtensions = {
  toNumber() {
    return this.valueOf() ? 1 : 0;
  },
  toInt() {
    return this.valueOf() ? 1 : 0;
  },
  toFloat() {
    return this.valueOf() ? 1 : 0;
  },
  isEmpty() {
    return false;
  },
  isNotEmpty() {
    return true;
  },
  toJsonString() {
    return JSON.stringify(this.valueOf());
  },
};
