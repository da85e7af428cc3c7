// Matches a request path against the document's path templates. Built once as a segment trie, so a
// lookup costs one map probe per segment whatever the number of operations.

export type RouteMatch<T> =
  | { kind: 'operation'; operation: T; pathParams: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' }
  | { kind: 'bad-path'; reason: string };

interface TrieNode<T> {
  literal: Map<string, TrieNode<T>>;
  /** Segments with a template (`{id}` or `{id}.json`), tried in the order the document lists them. */
  templated: Array<{ pattern: RegExp; names: string[]; node: TrieNode<T> }>;
  methods: Map<string, T> | null;
  allow: string[];
}

export class RouteTable<T> {
  private readonly root: TrieNode<T> = newNode();

  /** Adds an operation; `method` is upper-case, `template` an OpenAPI path such as `/plants/{id}`. */
  add(method: string, template: string, operation: T): void {
    let node = this.root;
    for (const segment of splitPath(template)) {
      if (!segment.includes('{')) {
        let next = node.literal.get(segment);
        if (!next) node.literal.set(segment, (next = newNode()));
        node = next;
        continue;
      }
      const source = segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([^}]+)\\?\}/g, '([^/]+)');
      const existing = node.templated.find((entry) => entry.pattern.source === `^${source}$`);
      if (existing) {
        node = existing.node;
      } else {
        const names = [...segment.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
        const entry = { pattern: new RegExp(`^${source}$`), names, node: newNode<T>() };
        node.templated.push(entry);
        node = entry.node;
      }
    }
    node.methods ??= new Map();
    node.methods.set(method, operation);
    node.allow = [...node.methods.keys()].sort();
  }

  /** Finds the operation for a method and a still percent-encoded path. */
  match(method: string, rawPath: string): RouteMatch<T> {
    let segments: string[];
    try {
      segments = splitPath(rawPath).map(decodeURIComponent);
    } catch {
      return { kind: 'bad-path', reason: 'the path holds an invalid percent-encoding' };
    }
    const pathParams: Record<string, string> = {};
    const node = this.walk(this.root, segments, 0, pathParams);
    if (!node?.methods) return { kind: 'not-found' };
    const operation = node.methods.get(method) ?? (method === 'HEAD' ? node.methods.get('GET') : undefined);
    if (operation === undefined) return { kind: 'method-not-allowed', allow: node.allow };
    return { kind: 'operation', operation, pathParams };
  }

  private walk(node: TrieNode<T>, segments: string[], index: number, params: Record<string, string>): TrieNode<T> | null {
    if (index === segments.length) return node.methods ? node : null;
    const segment = segments[index];
    // Literal segments win over templates, as OpenAPI asks (`/plants/mine` before `/plants/{id}`).
    const literal = node.literal.get(segment);
    const viaLiteral = literal && this.walk(literal, segments, index + 1, params);
    if (viaLiteral) return viaLiteral;
    for (const { pattern, names, node: child } of node.templated) {
      const match = pattern.exec(segment);
      if (!match) continue;
      const found = this.walk(child, segments, index + 1, params);
      if (found) {
        names.forEach((name, i) => (params[name] = match[i + 1]));
        return found;
      }
    }
    return null;
  }
}

function newNode<T>(): TrieNode<T> {
  return { literal: new Map(), templated: [], methods: null, allow: [] };
}

/** `/a/b/` -> ['a', 'b', '']: a trailing slash is a distinct (empty) segment, as in the document. */
function splitPath(path: string): string[] {
  return path === '/' ? [''] : path.slice(1).split('/');
}
