// Small helpers for the plain JSON values a parsed document is made of.

export type Json = Record<string, unknown>;

/** A JSON object (not an array, not null). */
export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Assignment that keeps a `__proto__` key an own property. */
export function setOwn(target: Json, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
