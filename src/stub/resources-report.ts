// What stateful mode made of the document, for people: one line at start-up and the report
// GET /__admin/resources answers (each resource with its paths, id property, envelopes, the parent
// path parameters it is scoped by, and bound operations, and which of these `x-stub-*` hints
// decided, with each hint's pointer; each path pair left stateless with the reason).
import type { Resource, Resources } from '../openapi/compile-resources.js';

/** `stateful: 14 resources (2 shaped by x-stub-* hints); 3 path pairs left stateless, see /__admin/resources` */
export function resourcesSummary(resources: Resources): string {
  const made = resources.byName.size;
  const left = resources.stateless.length;
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const hinted = [...resources.byName.values()].filter(isHinted).length;
  const shaped = hinted === 0 ? '' : ` (${hinted} shaped by x-stub-* hints)`;
  return `stateful: ${count(made, 'resource', 'resources')}${shaped}; ${count(left, 'path pair', 'path pairs')} left stateless, see /__admin/resources`;
}

function isHinted({ hinted }: Resource): boolean {
  return hinted.name !== null || hinted.idProperty !== null || Object.keys(hinted.serverSet).length > 0;
}

/**
 * Each parent path parameter of a nested collection with the item property it scopes by
 * (`{AccountSid}` -> `account_sid`: items are listed and read only under their parent); null where
 * the item has no property it names, so items are not kept apart by it.
 */
function scopeOf(resource: Resource): Array<{ parameter: string; property: string | null }> {
  const parameters = [...resource.name.matchAll(/\{([^{}]+)\}/g)].map(([, parameter]) => parameter);
  return parameters.map((parameter) => ({ parameter, property: resource.scope.find((scoped) => scoped.param === parameter)?.field ?? null }));
}

/**
 * Each resource by the name the admin API and page call it: its collection path's last segment
 * without a file suffix (`/plants` -> `plants`, `/Accounts/{AccountSid}/Messages.json` ->
 * `Messages`), with the segments before it joined on where two would share one (`users-posts`),
 * or the name an `x-stub-resource` hint gives it.
 */
export function resourceNames(resources: Resources): Map<string, Resource> {
  const segments = (resource: Resource) => resource.name.split('/').filter((segment) => segment !== '' && !segment.startsWith('{')).map((segment) => segment.replace(/\.[a-z]+$/i, ''));
  const all = [...resources.byName.values()];
  const named = new Map<string, Resource>();
  // A name a hint gave is the resource's own (compileResources refused two alike): the others make way.
  for (const resource of all) if (resource.hinted.name !== null) named.set(resource.hinted.name.value, resource);
  for (const resource of all) {
    if (resource.hinted.name !== null) continue;
    const own = segments(resource);
    let take = 1;
    const nameOf = (r: Resource, n: number) => segments(r).slice(-n).join('-') || 'root';
    while (take < own.length && all.some((other) => other !== resource && nameOf(other, take) === nameOf(resource, take))) take++;
    let name = nameOf(resource, take);
    for (let n = 2; named.has(name); n++) name = `${nameOf(resource, take)}-${n}`;
    named.set(name, resource);
  }
  return named;
}

export function resourcesReport(resources: Resources): object {
  const names = new Map([...resourceNames(resources)].map(([name, resource]) => [resource, name]));
  return {
    resources: [...resources.byName.values()].map((resource) => ({
      name: names.get(resource),
      collection: resource.name,
      item: resource.itemPath,
      idParameter: resource.idParam,
      idProperty: resource.idField,
      idKind: resource.idKind,
      bodyEnvelope: resource.bodyEnvelope,
      answerEnvelope: resource.answerEnvelope,
      serverFields: resource.serverFields,
      // Where a hint decided instead of the inference, the hint and its pointer.
      nameFrom: resource.hinted.name?.from ?? 'inferred',
      idFrom: resource.hinted.idProperty?.from ?? 'inferred',
      serverSetFrom: resource.hinted.serverSet,
      scope: scopeOf(resource),
      operations: resource.operations,
    })),
    stateless: resources.stateless,
  };
}
