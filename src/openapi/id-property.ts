// Which property carries a resource's identity, by the rules every layer shares: the property the
// item path's parameter names, by its full name, its snake_case form or its last word
// (`{task_gid}` -> `gid`, `{CallSid}` -> `call_sid` or `sid`, `{issue_number}` -> `number`),
// else the usual id-like names (`id`, `gid`, `sid`, `uuid`, `key`, `<resource>_id`). A parameter
// written as one word ending in a known name counts that name too (`{username}` -> `name`).
// Stateful mode also keys a resource with no id-like property at all by its `name`
// (KEYED_BY_NAME); a stateless answer's `name` is the document's, never the path's id.

/** Names a resource's own identity goes by when no path parameter names it. */
export const ID_NAMES: readonly string[] = ['id', 'gid', 'sid', 'uuid', 'key'];

/** Stateful mode's last resort: DigitalOcean's tags (`/v2/tags/{tag_id}` of `{name, resources}`) are keyed by name. */
export const KEYED_BY_NAME = 'name';

/** Names a one-word parameter may end with (`username`, `accountsid`). */
const SUFFIX_NAMES: readonly string[] = ['uuid', 'gid', 'sid', 'id', 'key', 'name', 'number'];

/** `CallSid`, `call_sid` and `call-sid` compare equal. */
export function normalizedName(name: string): string {
  return name.replace(/[_\-.]/g, '').toLowerCase();
}

/** Candidate names (normalized) for the id the item parameter `param` names, most specific first. */
export function itemIdNames(param: string, resource: string | null): string[] {
  const words = param.split(/[_\-.]|(?<=[a-z0-9])(?=[A-Z])/).filter((word) => word !== '');
  const last = normalizedName(words[words.length - 1] ?? param);
  const suffix = SUFFIX_NAMES.find((name) => last.endsWith(name) && last !== name);
  const names = [normalizedName(param), last, ...(suffix ? [suffix] : []), ...ID_NAMES];
  if (resource !== null) names.push(normalizedName(`${resource}_id`));
  return [...new Set(names)];
}

/** The first of `keys` that one of `names` (normalized, in order of preference) names; null when none. */
export function findIdKey(keys: Iterable<string>, names: readonly string[]): string | null {
  const list = [...keys];
  for (const name of names) {
    const key = list.find((candidate) => normalizedName(candidate) === name);
    if (key !== undefined) return key;
  }
  return null;
}

/** `folder` of `/folders/{folder_id}`, `Message` of `/Messages/{Sid}.json`: the collection's last word, singular. */
export function resourceWord(collectionPath: string): string | null {
  const last = collectionPath.split('/').filter((segment) => segment !== '' && !segment.startsWith('{')).pop();
  return last === undefined ? null : last.replace(/\.[A-Za-z0-9]+$/, '').replace(/s$/i, '');
}
