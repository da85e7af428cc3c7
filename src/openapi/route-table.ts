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
  templated: Array<{ pattern: RegExp; node: TrieNode<T> }>;
  methods: Map<string, T> | null;
  /**
   * Per method, the parameter names of the whole template in order. Kept at the end of the path,
   * not on the shared segment: `/books/{bookId}` and `/books/{isbn}/reviews` share one `{…}` node.
   */
  params: Map<string, string[]>;
  allow: string[];
}

export class RouteTable<T> {
  /** `headWithGet`: HEAD is answered wherever GET is (RFC 9110), else only where it is an operation (Prism). */
  constructor(private readonly options: { headWithGet: boolean } = { headWithGet: true }) {}

  private readonly root: TrieNode<T> = newNode();
  /** Paths without templates, by their exact text: most requests need one map probe, no walk. */
  private readonly literalPaths = new Map<string, TrieNode<T>>();

  /**
   * Adds an operation; `method` is upper-case, `template` an OpenAPI path such as `/plants/{id}`.
   * With `keepExisting`, an operation already there for that method and path stays.
   */
  add(method: string, template: string, operation: T, { keepExisting = false } = {}): void {
    let node = this.root;
    const params: string[] = [];
    for (const segment of splitPath(template)) {
      if (!segment.includes('{')) {
        let next = node.literal.get(segment);
        if (!next) node.literal.set(segment, (next = newNode()));
        node = next;
        continue;
      }
      params.push(...[...segment.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]));
      // A value may hold a `/` sent as `%2F` (GitHub's `git/ref/{ref}` takes `heads%2Fmain`): the
      // path is split before it is decoded, so any text of one segment is the value.
      const source = segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([^}]+)\\?\}/g, '(.+)');
      const existing = node.templated.find((entry) => entry.pattern.source === `^${source}$`);
      if (existing) {
        node = existing.node;
      } else {
        const entry = { pattern: new RegExp(`^${source}$`), node: newNode<T>() };
        node.templated.push(entry);
        node = entry.node;
      }
    }
    node.methods ??= new Map();
    if (keepExisting && node.methods.has(method)) return;
    if (params.length === 0) this.literalPaths.set(template, node);
    node.methods.set(method, operation);
    node.params.set(method, params);
    // HEAD is served wherever GET is (see matchMethod), so Allow names it too (RFC 9110 §10.2.1).
    node.allow = [...new Set([...node.methods.keys(), ...(this.options.headWithGet && node.methods.has('GET') ? ['HEAD'] : [])])].sort();
  }

  /** Finds the operation for a method and a still percent-encoded path. */
  match(method: string, rawPath: string): RouteMatch<T> {
    const literal = rawPath.includes('%') ? undefined : this.literalPaths.get(rawPath);
    if (literal) return this.matchMethod(literal, method, []);
    let segments: string[];
    try {
      segments = splitPath(rawPath).map(decodeURIComponent);
    } catch {
      return { kind: 'bad-path', reason: 'the path holds an invalid percent-encoding' };
    }
    const values: string[] = [];
    const node = this.walk(this.root, segments, 0, values);
    if (!node?.methods) return { kind: 'not-found' };
    return this.matchMethod(node, method, values);
  }

  private matchMethod(node: TrieNode<T>, method: string, values: string[]): RouteMatch<T> {
    const methods = node.methods!;
    const key = methods.has(method) ? method : method === 'HEAD' && this.options.headWithGet && methods.has('GET') ? 'GET' : null;
    if (key === null) return { kind: 'method-not-allowed', allow: node.allow };
    const pathParams: Record<string, string> = {};
    node.params.get(key)!.forEach((name, i) => (pathParams[name] = values[i]));
    return { kind: 'operation', operation: methods.get(key)!, pathParams };
  }

  /** Finds the end node; `values` receives the captured template values, in path order. */
  private walk(node: TrieNode<T>, segments: string[], index: number, values: string[]): TrieNode<T> | null {
    if (index === segments.length) return node.methods ? node : null;
    const segment = segments[index];
    // Literal segments win over templates, as OpenAPI asks (`/plants/mine` before `/plants/{id}`).
    const literal = node.literal.get(segment);
    const viaLiteral = literal && this.walk(literal, segments, index + 1, values);
    if (viaLiteral) return viaLiteral;
    for (const { pattern, node: child } of node.templated) {
      const match = pattern.exec(segment);
      if (!match) continue;
      const found = this.walk(child, segments, index + 1, values);
      if (found) {
        values.unshift(...match.slice(1)); // deeper segments have already put theirs in
        return found;
      }
    }
    return null;
  }
}

function newNode<T>(): TrieNode<T> {
  return { literal: new Map(), templated: [], methods: null, params: new Map(), allow: [] };
}

/** `/a/b/` -> ['a', 'b', '']: a trailing slash is a distinct (empty) segment, as in the document. */
function splitPath(path: string): string[] {
  return path === '/' ? [''] : path.slice(1).split('/');
}
