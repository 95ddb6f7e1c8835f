// n8n's number extensions (packages/workflow/src/extensions/number-extensions.ts). Functions take `(value, args)`.
import { luxon } from '../runtime/luxon.js';
import { ExpressionExtensionError } from './errors.js';

// Days from 1900-01-00 to 1970-01-01 in Excel's calendar, which counts 1900 as a leap year.
const EXCEL_EPOCH_DAYS = 25567 + 2;

function round(value, [decimalPlaces = 0]) {
  return +value.toFixed(decimalPlaces);
}

export function numberToDateTime(value, [format = 'ms']) {
  const { DateTime } = luxon();
  switch (format) {
    case 'ms':
      return DateTime.fromMillis(value);
    case 's':
      return DateTime.fromSeconds(value);
    case 'us':
      return DateTime.fromMillis(value / 1000);
    case 'excel':
      return DateTime.fromSeconds((value - EXCEL_EPOCH_DAYS) * 86_400);
    default:
      throw new ExpressionExtensionError(
        `Unsupported format '${String(format)}'. toDateTime() supports 'ms', 's', 'us' and 'excel'.`,
      );
  }
}

function integerOnly(name, value) {
  if (!Number.isInteger(value)) throw new ExpressionExtensionError(`${name}() is only callable on integers`);
}

export const numberFunctions = {
  ceil: (v) => Math.ceil(v),
  floor: (v) => Math.floor(v),
  format: (v, [locales = 'en-US', config = {}]) => new Intl.NumberFormat(locales, config).format(v),
  round,
  abs: (v) => Math.abs(v),
  isInteger: (v) => Number.isInteger(v),
  isEven: (v) => {
    integerOnly('isEven', v);
    return v % 2 === 0;
  },
  isOdd: (v) => {
    integerOnly('isOdd', v);
    return Math.abs(v) % 2 === 1;
  },
  toBoolean: (v) => v !== 0,
  toInt: (v) => round(v, []),
  toFloat: (v) => v,
  toDateTime: numberToDateTime,
};
