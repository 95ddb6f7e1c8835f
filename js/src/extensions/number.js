import { luxon } from '../runtime/luxon.js';
import { ExpressionExtensionError } from './errors.js';

export const numberExtensions = {
  ceil() {
    return Math.ceil(this);
  },
  floor() {
    return Math.floor(this);
  },
  round(decimalPlaces = 0) {
    const factor = Math.pow(10, decimalPlaces);
    return Math.round(this * factor) / factor;
  },
  abs() {
    return Math.abs(this);
  },
  isEven() {
    if (!Number.isInteger(Number(this))) throw new ExpressionExtensionError('isEven() is only callable on integers');
    return this % 2 === 0;
  },
  isOdd() {
    if (!Number.isInteger(Number(this))) throw new ExpressionExtensionError('isOdd() is only callable on integers');
    return Math.abs(this % 2) === 1;
  },
  isInteger() {
    return Number.isInteger(Number(this));
  },
  isEmpty() {
    return false;
  },
  isNotEmpty() {
    return true;
  },
  format(locale = 'en-US', options = {}) {
    return new Intl.NumberFormat(locale, options).format(this);
  },
  toBoolean() {
    return Number(this) !== 0;
  },
  toInt() {
    return Math.trunc(this);
  },
  toFloat() {
    return Number(this);
  },
  toDateTime(format = 'ms') {
    const n = Number(this);
    const { DateTime } = luxon();
    switch (format) {
      case 'ms':
        return DateTime.fromMillis(n);
      case 's':
        return DateTime.fromSeconds(n);
      case 'us':
        return DateTime.fromMillis(n / 1000);
      case 'excel':
        return DateTime.fromMillis((n - 25569) * 86400 * 1000, { zone: 'UTC' }).setZone('default', {
          keepLocalTime: true,
        });
      default:
        throw new ExpressionExtensionError(`Unsupported format '${format}'. toDateTime() supports 'ms', 's', 'us' and 'excel'.`);
    }
  },
  toJsonString() {
    return JSON.stringify(Number(this));
  },
};
