// Turns one Ajv error into the `<JSON pointer>: <reason>` text a client reads, with the pointer of
// the offending value (for `required`, the missing property itself) and a plain-English reason.
import type { ErrorObject } from 'ajv';
import { escapePointerToken } from '../common/json-pointer.js';

const ARTICLES: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  object: 'an object',
  array: 'an array',
  boolean: 'a boolean',
  null: 'null',
};

export function describeViolation(error: ErrorObject, prefix: string): string {
  const pointer = error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return at(prefix, `${pointer}/${escapePointerToken(String(params.missingProperty))}`, 'is required');
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const name = params.additionalProperty ?? params.unevaluatedProperty;
      return at(prefix, `${pointer}/${escapePointerToken(String(name))}`, 'is not allowed');
    }
    case 'type': {
      const types = Array.isArray(params.type) ? params.type : String(params.type).split(',');
      // Ajv reports the written `type` only; 3.0's `nullable: true` is read from the schema itself.
      const nullable = (error.parentSchema as { nullable?: unknown } | undefined)?.nullable === true && !types.includes('null') ? ' or null' : '';
      return at(prefix, pointer, `must be ${types.map((type: string) => ARTICLES[type] ?? type).join(' or ')}${nullable}`);
    }
    case 'enum':
      return at(prefix, pointer, `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`);
    case 'const':
      return at(prefix, pointer, `must be ${JSON.stringify(params.allowedValue)}`);
    case 'format':
      return at(prefix, pointer, `must be a valid ${String(params.format)}`);
    default:
      return at(prefix, pointer, error.message ?? 'is invalid');
  }
}

function at(prefix: string, pointer: string, reason: string): string {
  const where = prefix + pointer;
  return `${where === '' ? '/' : where}: ${reason}`;
}
