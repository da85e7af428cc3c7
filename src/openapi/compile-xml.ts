// XML answers for `application/xml`, `text/xml` and `*+xml` media types: a value (an example or
// generated data) is written as XML following the schema's `xml` hints: `name`, `attribute`,
// `wrapped`, `prefix` and `namespace`. fast-xml-parser's XMLBuilder writes the text (escaping,
// attributes); this module only decides the element tree. Plans are compiled at start-up, lazily
// below the root so recursive schemas cost nothing until a value goes that deep.
import type { XMLBuilder } from 'fast-xml-parser';
import { requireInNode } from '../common/require-in-node.js';
import type { LoadedDocument } from './load-document.js';
import { deref, isSchema, objectView, schemaTypes, type Schema } from './schema-view.js';
import { setOwn } from '../common/json-value.js';

/** Writes one body value as an XML document. */
export type XmlWriter = (value: unknown) => string;

const ATTRIBUTE = '@_';
const TEXT = '#text';

type XmlLibrary = typeof import('fast-xml-parser');

/** fast-xml-parser as imported ahead of compiling where Node's require is not at hand (a browser). */
let imported: XmlLibrary | null = null;

/** Imports the XML library now, for runtimes where it cannot be required when first needed. */
export async function importXmlLibrary(): Promise<void> {
  imported ??= await import('fast-xml-parser');
}

/**
 * Loaded on the first XML media type: importing fast-xml-parser takes about 90 ms (measured with
 * `await import` on the 2-core machine), which documents without XML should not pay at start-up.
 * In Node its CommonJS build is required, so that compiling stays synchronous; in a browser the
 * fetch entry calls importXmlLibrary() first.
 */
let builder: XMLBuilder | null = null;
function xmlBuilder(): XMLBuilder {
  if (builder) return builder;
  const library = imported ?? requireInNode<XmlLibrary>('fast-xml-parser');
  if (!library) throw new Error('fast-xml-parser was not imported; await importXmlLibrary() before compiling');
  const { XMLBuilder: Builder } = library;
  builder = new Builder({ ignoreAttributes: false, attributeNamePrefix: ATTRIBUTE, textNodeName: TEXT, suppressBooleanAttributes: false });
  return builder;
}

/**
 * A writer for the schema at `schema` (the media type's `schema`, possibly a `$ref`). `rootName`:
 * how the root is named without an `xml.name` (the compat policy's `xmlRoot`).
 */
export function compileXmlWriter(spec: LoadedDocument, schema: unknown, rootName: 'component' | 'xml' = 'component'): XmlWriter {
  const builder = xmlBuilder();
  const nodes = new XmlNodes(spec);
  // The root element: the schema's xml.name, else the component it names (`#/components/schemas/Pet`
  // -> `Pet`, as OpenAPI's own XML examples and Swagger UI do), else `xml` (always, as Prism names it).
  const root = nodes.node(schema, (rootName === 'component' ? componentName(schema) : undefined) ?? 'xml');
  return (value) => {
    const declarations: Record<string, unknown> = {};
    const built = root.build(value, declarations);
    return builder.build({ [root.name]: withAttributes(built, declarations) });
  };
}

function componentName(schema: unknown): string | undefined {
  if (!isSchema(schema) || typeof schema.$ref !== 'string') return undefined;
  return /^#\/components\/schemas\/([^/]+)$/.exec(schema.$ref)?.[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
}

class XmlNodes {
  private readonly memo = new Map<Schema, Map<string, XmlNode>>();
  constructor(readonly spec: LoadedDocument) {}

  /** The node of a schema met under `fallbackName` (a property name, or the root's name). */
  node(raw: unknown, fallbackName: string): XmlNode {
    const hints = xmlHints(raw) ?? xmlHints(deref(this.spec, raw));
    const schema = deref(this.spec, raw);
    const name = qualified(typeof hints?.name === 'string' ? hints.name : fallbackName, hints);
    let byName = this.memo.get(schema);
    if (!byName) this.memo.set(schema, (byName = new Map()));
    const known = byName.get(name);
    if (known) return known;
    const node = new XmlNode(this, schema, name, hints);
    byName.set(name, node);
    return node;
  }
}

/** One element (or attribute) of the tree: what a schema says about its XML form. */
class XmlNode {
  readonly attribute: boolean;
  readonly wrapped: boolean;
  private readonly namespace: string | undefined;
  private children?: Map<string, XmlNode>;
  private itemNode?: XmlNode;

  constructor(private readonly nodes: XmlNodes, private readonly schema: Schema, readonly name: string, hints: Schema | undefined) {
    this.attribute = hints?.attribute === true;
    this.wrapped = hints?.wrapped === true;
    this.namespace = typeof hints?.namespace === 'string' ? hints.namespace : undefined;
  }

  /**
   * The builder's form of `value` for this element. Attributes (and the namespace declaration)
   * are set on `element`'s parent record by the caller; here they go into the returned record.
   */
  build(value: unknown, declarations: Record<string, unknown>): unknown {
    if (this.namespace !== undefined) declarations[`${ATTRIBUTE}${this.name.includes(':') ? `xmlns:${this.name.split(':')[0]}` : 'xmlns'}`] = this.namespace;
    if (Array.isArray(value)) return { [this.items().name]: value.map((item) => this.items().build(item, {})) };
    if (value === null || typeof value !== 'object') return value === null ? '' : value;
    const element: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const node = this.child(key);
      if (node.attribute && (child === null || typeof child !== 'object')) {
        setOwn(element, `${ATTRIBUTE}${node.name}`, child);
      } else if (Array.isArray(child) && !node.wrapped) {
        // An unwrapped array is its items repeated in place, named as the items say, else as the property.
        const items = node.items(node.name);
        const built = child.map((item) => items.build(item, {}));
        setOwn(element, items.name, Object.hasOwn(element, items.name) ? [...[element[items.name]].flat(), ...built] : built);
      } else {
        const attributes: Record<string, unknown> = {};
        const built = node.build(child, attributes);
        setOwn(element, node.name, withAttributes(built, attributes));
      }
    }
    Object.assign(element, declarations);
    for (const key of Object.keys(declarations)) delete declarations[key];
    return element;
  }

  private child(key: string): XmlNode {
    this.children ??= new Map([...(objectView(this.nodes.spec, this.schema)?.properties ?? [])].map(([name, property]) => [name, this.nodes.node(property, xmlName(name))]));
    let node = this.children.get(key);
    if (!node) this.children.set(key, (node = this.nodes.node({}, xmlName(key))));
    return node;
  }

  /** The node of this array's items: named by their xml.name, else their component, else `fallback`. */
  items(fallback = this.name): XmlNode {
    if (this.itemNode) return this.itemNode;
    const items = schemaTypes(this.schema).includes('array') || this.schema.items !== undefined ? this.schema.items : undefined;
    this.itemNode = this.nodes.node(items ?? {}, componentName(items) ?? fallback);
    return this.itemNode;
  }
}

/** `built` with attributes added: into its record, or beside its text. */
function withAttributes(built: unknown, attributes: Record<string, unknown>): unknown {
  if (Object.keys(attributes).length === 0) return built;
  return built !== null && typeof built === 'object' && !Array.isArray(built) ? { ...built, ...attributes } : { [TEXT]: built, ...attributes };
}

function xmlHints(schema: unknown): Schema | undefined {
  return isSchema(schema) && isSchema(schema.xml) ? schema.xml : undefined;
}

function qualified(name: string, hints: Schema | undefined): string {
  return typeof hints?.prefix === 'string' && hints.prefix !== '' ? `${xmlName(hints.prefix)}:${xmlName(name)}` : xmlName(name);
}

/** A key as an XML name: characters a name cannot hold become `_`, and it starts with a letter or `_`. */
function xmlName(key: string): string {
  const name = key.replace(/[^\p{L}\p{N}_.-]/gu, '_');
  return /^[\p{L}_]/u.test(name) ? name : `_${name}`;
}
