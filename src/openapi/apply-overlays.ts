// OpenAPI Overlays (1.0): corrections to a document a team does not own, kept in files of their own
// and applied to the document as parsed, before it is bundled or converted: each action's JSONPath
// `target` (RFC 9535, read by jsonpath-plus) selects nodes, which `update` merges into (an array
// takes it appended) or `remove: true` takes away, in order. A target that selects nothing is a
// warning naming the action; an overlay that is not one stops the start, naming its file and pointer.
import { JSONPath } from 'jsonpath-plus';
import { ConfigError } from '../config/config-error.js';
import { isObject } from '../common/json-value.js';
import type { DocumentWarning } from './document-warnings.js';

/** An overlay file as read: where it came from (named in every error) and its parsed content. */
export interface OverlaySource {
  file: string;
  value: unknown;
}

export const OVERLAY_MATCHING_NOTHING = 'overlay action whose target matches nothing';

interface Action {
  target: string;
  update?: unknown;
  remove: boolean;
}

/** Applies the overlays in order to `document` (changed in place); the warnings of actions that matched nothing. */
export function applyOverlays(document: unknown, overlays: readonly OverlaySource[]): DocumentWarning[] {
  const warnings: DocumentWarning[] = [];
  for (const { file, value } of overlays) {
    checkedActions(file, value).forEach((action, i) => {
      let nodes: Array<{ parent: unknown; parentProperty: string | number; value: unknown }>;
      try {
        nodes = JSONPath({ path: action.target, json: document as object, resultType: 'all', wrap: true, eval: 'safe' }) ?? [];
      } catch (error) {
        throw new ConfigError(file, `/actions/${i}/target: not a JSONPath expression this reader takes (${(error as Error).message})`);
      }
      if (nodes.length === 0) {
        warnings.push({ file, pointer: `/actions/${i}`, kind: OVERLAY_MATCHING_NOTHING, reason: `the target ${action.target} selects nothing in the document; the action changed nothing` });
        return;
      }
      // Removed from the last to the first, so an array's later indexes stay right.
      for (const node of [...nodes].reverse()) {
        if (action.remove) removeNode(node.parent, node.parentProperty);
        else if (action.update !== undefined) updateNode(node, action.update);
      }
    });
  }
  return warnings;
}

function checkedActions(file: string, value: unknown): Action[] {
  if (!isObject(value)) throw new ConfigError(file, '/: an overlay is a mapping with overlay: 1.0.0, info and actions');
  if (typeof value.overlay !== 'string' || !/^1\.\d+\.\d+$/.test(value.overlay)) throw new ConfigError(file, '/overlay: must name the Overlay version, 1.0.0');
  if (!Array.isArray(value.actions) || value.actions.length === 0) throw new ConfigError(file, '/actions: must be a list of actions, each with a target and an update or remove: true');
  return value.actions.map((raw: unknown, i: number): Action => {
    const at = `/actions/${i}`;
    if (!isObject(raw)) throw new ConfigError(file, `${at}: must be a mapping with target and update or remove`);
    if (typeof raw.target !== 'string' || !raw.target.startsWith('$')) throw new ConfigError(file, `${at}/target: must be a JSONPath expression starting at $ (e.g. $.paths['/plants'].post)`);
    if (raw.remove !== undefined && typeof raw.remove !== 'boolean') throw new ConfigError(file, `${at}/remove: must be true or false`);
    if (raw.remove === true && raw.update !== undefined) throw new ConfigError(file, `${at}: has both update and remove: true; an action does one`);
    if (raw.remove !== true && raw.update === undefined) throw new ConfigError(file, `${at}: has neither update nor remove: true`);
    return { target: raw.target, update: raw.update, remove: raw.remove === true };
  });
}

function removeNode(parent: unknown, property: string | number): void {
  if (Array.isArray(parent)) parent.splice(Number(property), 1);
  else if (isObject(parent)) delete parent[String(property)];
}

function updateNode(node: { parent: unknown; parentProperty: string | number; value: unknown }, update: unknown): void {
  if (Array.isArray(node.value)) {
    node.value.push(structuredClone(update));
    return;
  }
  if (isObject(node.value) && isObject(update)) {
    merge(node.value, update);
    return;
  }
  // A scalar (or the whole document's root) is replaced by the update.
  if (isObject(node.parent) || Array.isArray(node.parent)) (node.parent as Record<string, unknown>)[node.parentProperty] = structuredClone(update);
}

/** Merges `update` into `target`: objects key by key, an array's items appended, anything else replaced. */
function merge(target: Record<string, unknown>, update: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(update)) {
    const current = target[key];
    if (isObject(current) && isObject(value)) merge(current, value);
    else if (Array.isArray(current) && Array.isArray(value)) current.push(...structuredClone(value));
    else Object.defineProperty(target, key, { value: structuredClone(value), enumerable: true, writable: true, configurable: true });
  }
}
