// What stateful mode made of the document, for people: one line at start-up and the report
// GET /__admin/resources answers (each resource with its paths, id property, envelopes and bound
// operations; each path pair left stateless with the reason).
import type { Resources } from '../openapi/compile-resources.js';

/** `stateful: 14 resources; 3 path pairs left stateless, see /__admin/resources` */
export function resourcesSummary(resources: Resources): string {
  const made = resources.byName.size;
  const left = resources.stateless.length;
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return `stateful: ${count(made, 'resource', 'resources')}; ${count(left, 'path pair', 'path pairs')} left stateless, see /__admin/resources`;
}

export function resourcesReport(resources: Resources): object {
  return {
    resources: [...resources.byName.values()].map((resource) => ({
      collection: resource.name,
      item: resource.itemPath,
      idParameter: resource.idParam,
      idProperty: resource.idField,
      idKind: resource.idKind,
      bodyEnvelope: resource.bodyEnvelope,
      answerEnvelope: resource.answerEnvelope,
      serverFields: resource.serverFields,
      operations: resource.operations,
    })),
    stateless: resources.stateless,
  };
}
