// n8n's boolean extensions (packages/workflow/src/extensions/boolean-extensions.ts).
const toInt = (v) => (v ? 1 : 0);

export const booleanFunctions = {
  toBoolean: (v) => v,
  toInt,
  toFloat: toInt,
  toNumber: toInt,
  toDateTime: () => undefined,
};
