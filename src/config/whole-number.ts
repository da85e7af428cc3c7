// The check every numeric option goes through, shared by the server's options and the fetch handler's.
import { ConfigError } from './config-error.js';

/** Throws a ConfigError naming the option unless `value` is a whole number from `min` to `max`. */
export function wholeNumber(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(name, `must be a whole number from ${min} to ${max}, got ${value}`);
  }
}
