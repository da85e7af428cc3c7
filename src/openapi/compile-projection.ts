// Echo: projects the request body onto the response schema. Only fields the response schema
// declares are copied (so `id` is dropped from a Plant answer); a required field the request
// lacks comes from the fallback (an example or generated data). Each plan is compiled once.
import { deref, objectView, schemaTypes, type Schema } from './schema-view.js';
import type { LoadedDocument } from './load-document.js';
import { setOwn } from '../shared/json-value.js';

type Plan =
  | { kind: 'object'; fields: Array<{ name: string; plan: Plan; required: boolean }> }
  | { kind: 'array'; items: Plan }
  | { kind: 'value' };

/** Projects `source`; `fallback` is called (at most once per level) only when something is missing. */
export type Projection = (source: unknown, fallback: () => unknown) => unknown;

export function compileProjection(spec: LoadedDocument, schema: unknown): Projection {
  // Planned on first use: a document's many operations mostly go unused, and planning every
  // response at start was a quarter of a second of GitHub's start-up.
  let plan: Plan | null = null;
  return (source, fallback) => apply((plan ??= compilePlan(spec, schema, new Map())), source, once(fallback));
}

function compilePlan(spec: LoadedDocument, raw: unknown, memo: Map<Schema, Plan>): Plan {
  const schema = deref(spec, raw);
  const known = memo.get(schema);
  if (known) return known;
  const view = objectView(spec, schema);
  if (view) {
    const plan: Plan = { kind: 'object', fields: [] };
    memo.set(schema, plan); // registered before recursing, so recursive schemas terminate
    for (const [name, property] of view.properties) {
      plan.fields.push({ name, plan: compilePlan(spec, property, memo), required: view.required.has(name) });
    }
    return plan;
  }
  if (schemaTypes(schema).includes('array') && schema.items !== undefined) {
    const plan: Plan = { kind: 'array', items: { kind: 'value' } };
    memo.set(schema, plan);
    plan.items = compilePlan(spec, schema.items, memo);
    return plan;
  }
  return { kind: 'value' };
}

function apply(plan: Plan, source: unknown, fallback: () => unknown): unknown {
  switch (plan.kind) {
    case 'value':
      return source;
    case 'array':
      if (!Array.isArray(source)) return fallback();
      return source.map((item) => apply(plan.items, item, once(() => firstItem(fallback()))));
    case 'object': {
      if (!isPlainObject(source)) return fallback();
      const result: Record<string, unknown> = {};
      for (const { name, plan: fieldPlan, required } of plan.fields) {
        let value: unknown;
        if (Object.hasOwn(source, name)) {
          // Leaves (the common case) are copied without building a fallback for them.
          value = fieldPlan.kind === 'value' ? source[name] : apply(fieldPlan, source[name], once(() => propertyOf(fallback(), name)));
        } else if (required) {
          value = propertyOf(fallback(), name);
        }
        if (value === undefined) continue;
        if (name === '__proto__') setOwn(result, name, value);
        else result[name] = value;
      }
      return result;
    }
  }
}

function once<T>(compute: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value;
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
}

function propertyOf(value: unknown, name: string): unknown {
  return isPlainObject(value) && Object.hasOwn(value, name) ? value[name] : undefined;
}

function firstItem(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : undefined;
}
