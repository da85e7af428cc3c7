// The corpus run: the stub started on a real document, and one valid request per operation built
// from that document (path, required query, header and cookie parameters, a body, credentials),
// each answer judged: a documented status, a body the self-check found valid for its schema, and
// never a 5xx. Used by test/corpus.test.ts; the outcome per document is data the test asserts on
// and prints. Values are the document's own examples where they fit their schema (checked with
// the stub's schema compiler, since a broken example is no valid request), else generated.
import http from 'node:http';
import { startStub } from '../../src/index.js';
import { loadDocument, type LoadedDocument } from '../../src/openapi/load-document.js';
import { followRefs } from '../../src/openapi/follow-ref.js';
import { createDataGenerator, type DataGenerator } from '../../src/generate/data-generator.js';
import { loadGeneratorLibraries } from '../../src/generate/generator-libraries.js';
import { escapePointerToken } from '../../src/common/json-pointer.js';
import { createSchemaCompiler } from '../../src/openapi/schema-compiler.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query'];

/**
 * `no valid request`: the document's own schema refuses every value the helper could build for a
 * part of the request (a oneOf whose branches all match an object, an allOf of string and
 * integer, two credentials in one Authorization header), so the stub refusing it says nothing of
 * the stub; such cases are counted and printed, not judged.
 */
export type Verdict = 'documented' | '5xx' | 'undocumented status' | 'invalid body' | 'request refused' | 'no answer' | 'nothing documented' | 'no valid request';

export interface CorpusCase {
  operation: string;
  verdict: Verdict;
  /** What went wrong, for the report: status and the stub's message or self-check. */
  detail: string;
  /** The request sent (method, target, body cut to 600 characters), for the report. */
  sent: string;
}

export interface CorpusOutcome {
  document: string;
  cases: CorpusCase[];
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Starts the stub on `file`, sends one request per operation, and judges each answer. */
export async function runCorpusDocument(file: string, label = file): Promise<CorpusOutcome> {
  await loadGeneratorLibraries();
  const spec = await loadDocument(file);
  const compiler = createSchemaCompiler(spec, () => {});
  const samples: Samples = {
    spec,
    generator: createDataGenerator(spec.document, { seed: 7 }),
    fits: (pointer, value) => compiler.compile(pointer)(value).length === 0,
  };
  const stub = await startStub({ spec: file, fixtures: '/nonexistent-corpus-fixtures', port: 0, watch: false, log: () => {}, seed: 7 });
  const cases: CorpusCase[] = [];
  try {
    for (const operation of operationsOf(spec)) {
      const built = buildRequest(samples, operation);
      const url = `${stub.url}${built.path}${built.query ? `?${built.query}` : ''}`;
      let status = 0;
      let text = '';
      try {
        ({ status, text } = await send(url, operation.method, built));
      } catch (error) {
        cases.push({ operation: operation.key, verdict: 'no answer', detail: (error as Error).message, sent: describeSent(operation, built) });
        continue;
      }
      const [entry] = stub.requests({ method: operation.method }).slice(-1);
      stub.reset();
      const judged = judge(operation, status, text, entry?.selfCheck ?? [], entry?.violations ?? []);
      // Only a refusal can be the document's doing; an invalid answer or a 5xx is the stub's whatever was sent.
      const unbuildable = built.unfit.length > 0 && judged.verdict === 'request refused';
      const verdict = unbuildable ? { verdict: 'no valid request' as const, detail: `${judged.detail} (the document refuses what was built for ${built.unfit.join(', ')})` } : judged;
      cases.push({ operation: operation.key, ...verdict, sent: describeSent(operation, built) });
    }
  } finally {
    await stub.close();
  }
  return { document: label, cases };
}

/**
 * The valid request the corpus run builds for each operation of `file`, keyed like the stub's
 * operations (`GET /tasks/{task_gid}`): what a test following a flow across operations sends.
 */
export async function validRequests(file: string, seed = 7): Promise<Map<string, BuiltRequest & { method: string }>> {
  await loadGeneratorLibraries();
  const spec = await loadDocument(file);
  const compiler = createSchemaCompiler(spec, () => {});
  const samples: Samples = { spec, generator: createDataGenerator(spec.document, { seed }), fits: (pointer, value) => compiler.compile(pointer)(value).length === 0 };
  const requests = new Map<string, BuiltRequest & { method: string }>();
  for (const operation of operationsOf(spec)) requests.set(operation.key, { ...buildRequest(samples, operation), method: operation.method });
  return requests;
}

/** Sends one built request to the stub at `url` (node:http, any status), answering status, headers and text. */
export { send as sendBuilt };

function describeSent(operation: Operation, built: BuiltRequest): string {
  const target = `${built.path}${built.query ? `?${built.query}` : ''}`;
  return `${operation.method} ${target}${built.body === undefined ? '' : ` ${built.body.slice(0, 600)}`}`;
}

/** One request with node:http (fetch refuses some statuses a stub may document, such as 407). */
function send(url: string, method: string, built: Omit<BuiltRequest, 'unfit'>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    // Node sends a DELETE's body without a length unless told; the stub would read it as a second request.
    const headers = built.body === undefined ? built.headers : { ...built.headers, 'content-length': String(Buffer.byteLength(built.body)) };
    const request = http.request(url, { method, headers, agent: false, timeout: 10_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error('no answer within 10 s')));
    request.on('error', reject);
    request.end(built.body);
  });
}

interface Operation {
  key: string;
  method: string;
  path: string;
  pointer: string;
  value: Node;
  pathItem: { value: Node; pointer: string };
}

function* operationsOf(spec: LoadedDocument): Generator<Operation> {
  for (const [path, raw] of Object.entries(spec.document.paths ?? {})) {
    const pathItem = deref(spec, raw, `/paths/${escapePointerToken(path)}`);
    for (const method of METHODS) {
      const value = pathItem.value[method];
      if (isNode(value)) yield { key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, pointer: `${pathItem.pointer}/${method}`, value, pathItem };
    }
  }
}

function deref(spec: LoadedDocument, value: unknown, pointer: string): { value: Node; pointer: string } {
  const target = followRefs(spec, value, pointer);
  return { value: isNode(target.value) ? target.value : {}, pointer: target.pointer };
}

export interface BuiltRequest {
  path: string;
  query: string;
  headers: Record<string, string>;
  body?: string;
  /** The parts for which no value the document accepts could be built (their schema pointers, or the security requirement). */
  unfit: string[];
}

/** A request the document calls valid: required parameters, a body, and the first credentials it accepts. */
function buildRequest(samples: Samples, operation: Operation): BuiltRequest {
  const unfit: string[] = [];
  samples = { ...samples, unfit };
  const { spec } = samples;
  const headers: Record<string, string> = { accept: '*/*' };
  const query = new URLSearchParams();
  const cookies: string[] = [];
  // A `#fragment` in a path template (Box's) tells operations apart in the document; a client sends the path without it.
  let path = operation.path.split('#', 1)[0];
  for (const parameter of parametersOf(spec, operation)) {
    const { value: p, pointer } = parameter;
    const location = String(p.in);
    if (location !== 'path' && p.required !== true) continue;
    const value = sampleOf(samples, p, pointer, operation.key);
    const text = serialize(value, p);
    if (location === 'path') path = path.replaceAll(`{${String(p.name)}}`, pathText(value, p));
    else if (location === 'query') {
      if (Array.isArray(value) && p.explode !== false && (p.style === undefined || p.style === 'form')) for (const item of value) query.append(String(p.name), String(item));
      else query.append(String(p.name), text);
    } else if (location === 'header') headers[String(p.name).toLowerCase()] = text;
    else if (location === 'cookie') cookies.push(`${String(p.name)}=${encodeURIComponent(text)}`);
  }
  if (!addCredentials(spec, operation, headers, query, cookies)) unfit.push('its security requirement');
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  let body: string | undefined;
  const requestBody = operation.value.requestBody === undefined ? null : deref(spec, operation.value.requestBody, `${operation.pointer}/requestBody`);
  const content = requestBody && isNode(requestBody.value.content) ? requestBody.value.content : {};
  const [type] = Object.keys(content);
  if (type !== undefined && requestBody) {
    const media = isNode(content[type]) ? (content[type] as Node) : {};
    const value = mediaSample(samples, media, `${requestBody.pointer}/content/${escapePointerToken(type)}`, operation.key);
    const base = type.split(';')[0].trim().toLowerCase();
    if (base === 'application/x-www-form-urlencoded') {
      body = new URLSearchParams(formFields(value, isNode(media.encoding) ? (media.encoding as Node) : {})).toString();
      headers['content-type'] = type;
    } else if (base.startsWith('multipart/')) {
      const parts = formFields(value).map(([name, text]) => `--corpus\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${text}\r\n`);
      body = `${parts.join('')}--corpus--\r\n`;
      headers['content-type'] = `${base}; boundary=corpus`;
    } else if (base === 'application/json' || base.endsWith('+json') || base === '*/*') {
      body = JSON.stringify(value ?? null);
      headers['content-type'] = base === '*/*' ? 'application/json' : type;
    } else {
      body = typeof value === 'string' ? value : JSON.stringify(value ?? '');
      headers['content-type'] = type.includes('*') ? 'application/octet-stream' : type;
    }
  }
  return { path, query: query.toString(), headers, body: operation.method === 'GET' || operation.method === 'HEAD' ? undefined : body, unfit };
}

/** Path-level parameters, overridden by the operation's own of the same name and place. */
function parametersOf(spec: LoadedDocument, operation: Operation): Array<{ value: Node; pointer: string }> {
  const byKey = new Map<string, { value: Node; pointer: string }>();
  const add = (list: unknown, pointer: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((entry, i) => {
      const parameter = deref(spec, entry, `${pointer}/${i}`);
      byKey.set(`${String(parameter.value.in)}:${String(parameter.value.name)}`, parameter);
    });
  };
  add(operation.pathItem.value.parameters, `${operation.pathItem.pointer}/parameters`);
  add(operation.value.parameters, `${operation.pointer}/parameters`);
  return [...byKey.values()];
}

/**
 * What builds a request's values: the document, its data generator, and whether a value fits the
 * schema at a pointer. The document's own examples are used first, but only where they fit their
 * schema: an example that breaks it (Twilio's `Url: myUrl` under `format: uri`, Asana's
 * `member: 12345` for a string) does not make a valid request, so generated data is sent instead.
 */
interface Samples {
  spec: LoadedDocument;
  generator: DataGenerator;
  fits: (schemaPointer: string, value: unknown) => boolean;
  /** Where the request being built got a value its schema refuses (filled by generatedFitting). */
  unfit?: string[];
}

/** The values a parameter or media type documents: its `example`, then its `examples`. */
function documented(spec: LoadedDocument, holder: Node): unknown[] {
  const values: unknown[] = holder.example === undefined ? [] : [holder.example];
  if (isNode(holder.examples)) {
    for (const example of Object.values(holder.examples)) {
      const target = deref(spec, example, '').value;
      if ('value' in target) values.push(target.value);
    }
  }
  return values;
}

/** A parameter's value: the first documented one that fits its schema, else one from its schema. */
function sampleOf(samples: Samples, parameter: Node, pointer: string, key: string): unknown {
  if (parameter.schema === undefined && isNode(parameter.content)) {
    const [type] = Object.keys(parameter.content);
    return mediaSample(samples, parameter.content[type] as Node, `${pointer}/content/${escapePointerToken(type)}`, key, documented(samples.spec, parameter));
  }
  const schema = deref(samples.spec, parameter.schema, `${pointer}/schema`);
  const value = documented(samples.spec, parameter).find((candidate) => samples.fits(schema.pointer, candidate));
  return value !== undefined ? value : fitForUrl(schemaSample(samples, schema.value, schema.pointer, key), schema.value);
}

/**
 * Generated text sized for a URL or a header: a string that may be 150,000 characters long
 * (Discord's webhook token) is cut to its minimum length or 64, and an empty one, which would
 * leave `//` in a path, becomes `x`.
 */
function fitForUrl(value: unknown, schema: Node): unknown {
  if (typeof value !== 'string') return value;
  if (value === '') return typeof schema.minLength === 'number' && schema.minLength > 0 ? value : 'x';
  const keep = Math.max(typeof schema.minLength === 'number' ? schema.minLength : 0, 64);
  return value.length > 256 ? value.slice(0, keep) : value;
}

function mediaSample(samples: Samples, media: Node, pointer: string, key: string, before: unknown[] = []): unknown {
  const candidates = [...before, ...documented(samples.spec, media)];
  if (media.schema === undefined) return candidates.length > 0 ? candidates[0] : {};
  const schema = deref(samples.spec, media.schema, `${pointer}/schema`);
  const value = candidates.find((candidate) => samples.fits(schema.pointer, candidate));
  return value !== undefined ? value : schemaSample(samples, schema.value, schema.pointer, key);
}

/** The schema's own example, default or first enum value where it fits, else generated data. */
function schemaSample(samples: Samples, schema: Node, pointer: string, key: string): unknown {
  const own = [schema.example, schema.default, Array.isArray(schema.enum) ? schema.enum[0] : undefined];
  const value = own.find((candidate) => candidate !== undefined && samples.fits(pointer, candidate));
  return value !== undefined ? value : generatedFitting(samples, pointer, key);
}

/**
 * How many times a request value is generated before the first one is sent anyway: a oneOf whose
 * branches overlap, or a random format, breaks a try now and then, and a try with another seed
 * usually does not (the stub does the same for its answers, openapi/generate-fitting.ts).
 */
const REQUEST_ATTEMPTS = 12;

/** Generated data for the schema at `pointer` that fits it, trying other seeds; the first try when none fits. */
function generatedFitting(samples: Samples, pointer: string, key: string): unknown {
  const first = samples.generator.generate(pointer, key);
  if (samples.fits(pointer, first)) return first;
  for (let attempt = 1; attempt < REQUEST_ATTEMPTS; attempt++) {
    const value = samples.generator.generate(pointer, `${key}\u0000${attempt}`, true);
    if (samples.fits(pointer, value)) return value;
  }
  samples.unfit?.push(pointer);
  return first;
}

/** A value as parameter text: arrays joined by their style's delimiter, objects as JSON. */
function serialize(value: unknown, parameter: Node): string {
  if (Array.isArray(value)) {
    const delimiter = parameter.style === 'pipeDelimited' ? '|' : parameter.style === 'spaceDelimited' ? ' ' : ',';
    return value.map((item) => (typeof item === 'object' ? JSON.stringify(item) : String(item))).join(delimiter);
  }
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value ?? '');
}

/**
 * A form body's fields: one per property, an array as the field repeated, objects as JSON text;
 * a property its `encoding` gives `style: deepObject` in brackets (`metadata[order]=1`, `expand[0]=x`), as Stripe's are.
 */
function formFields(value: unknown, encoding: Node = {}): Array<[string, string]> {
  const text = (item: unknown) => (typeof item === 'string' ? item : JSON.stringify(item));
  return Object.entries(isNode(value) ? value : {}).flatMap(([name, field]) => {
    const style = isNode(encoding[name]) ? (encoding[name] as Node).style : undefined;
    if (style === 'deepObject' && (isNode(field) || Array.isArray(field))) return bracketed(name, field);
    return (Array.isArray(field) ? field : [field]).map((item): [string, string] => [name, text(item)]);
  });
}

function bracketed(prefix: string, value: unknown): Array<[string, string]> {
  if (Array.isArray(value)) return value.flatMap((item, i) => bracketed(`${prefix}[${i}]`, item));
  if (isNode(value)) return Object.entries(value).flatMap(([key, member]) => bracketed(`${prefix}[${key}]`, member));
  return [[prefix, typeof value === 'string' ? value : JSON.stringify(value)]];
}

/**
 * A path parameter's text in its style (RFC 6570, as OpenAPI's table spells it): `simple`
 * `a,b` / `k,v` (exploded `k=v`), `label` `.a,b` / `.a.b`, `matrix` `;id=a,b` / `;id=a;id=b`, each
 * value percent-encoded and the delimiters not.
 */
function pathText(value: unknown, parameter: Node): string {
  const name = String(parameter.name);
  const style = typeof parameter.style === 'string' ? parameter.style : 'simple';
  const explode = parameter.explode === true;
  const atom = (item: unknown) => encodeURIComponent(typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item ?? ''));
  const object = isNode(value) ? Object.entries(value) : null;
  const list = Array.isArray(value) ? value.map(atom) : null;
  if (style === 'label') {
    if (object) return `.${object.map(([k, v]) => (explode ? `${atom(k)}=${atom(v)}` : `${atom(k)},${atom(v)}`)).join(explode ? '.' : ',')}`;
    return `.${list ? list.join(explode ? '.' : ',') : atom(value)}`;
  }
  if (style === 'matrix') {
    if (object) return explode ? object.map(([k, v]) => `;${atom(k)}=${atom(v)}`).join('') : `;${name}=${object.map(([k, v]) => `${atom(k)},${atom(v)}`).join(',')}`;
    if (list && explode) return list.map((item) => `;${name}=${item}`).join('');
    return `;${name}=${list ? list.join(',') : atom(value)}`;
  }
  if (object) return object.map(([k, v]) => (explode ? `${atom(k)}=${atom(v)}` : `${atom(k)},${atom(v)}`)).join(',');
  return list ? list.join(',') : atom(value);
}

/**
 * The first alternative of the operation's (else the document's) security that the stub can be
 * given; false when none can (each needs two credentials in the one Authorization header).
 */
function addCredentials(spec: LoadedDocument, operation: Operation, headers: Record<string, string>, query: URLSearchParams, cookies: string[]): boolean {
  const requirements = (operation.value.security ?? spec.document.security) as Array<Record<string, unknown>> | undefined;
  if (!Array.isArray(requirements) || requirements.length === 0) return true;
  const schemes = (spec.document.components?.securitySchemes ?? {}) as Record<string, unknown>;
  const schemeOf = (name: string) => deref(spec, schemes[name], `/components/securitySchemes/${escapePointerToken(name)}`).value;
  const usesAuthorization = (scheme: Node) => ['http', 'oauth2', 'openidconnect'].includes(String(scheme.type ?? '').toLowerCase());
  // An alternative that needs two credentials in the one Authorization header cannot be met.
  const possible = requirements.find((requirement) => Object.keys(requirement ?? {}).filter((name) => usesAuthorization(schemeOf(name))).length <= 1);
  for (const name of Object.keys(possible ?? requirements[0] ?? {})) {
    const scheme = schemeOf(name);
    const type = String(scheme.type ?? '').toLowerCase();
    if (type === 'http' && String(scheme.scheme).toLowerCase() === 'basic') headers.authorization = `Basic ${Buffer.from('corpus:secret').toString('base64')}`;
    else if (type === 'http' || type === 'oauth2' || type === 'openidconnect') headers.authorization = `${type === 'http' ? String(scheme.scheme) : 'Bearer'} corpus-token`;
    else if (type === 'apikey') {
      const keyName = String(scheme.name);
      if (scheme.in === 'header') headers[keyName.toLowerCase()] = 'corpus-key';
      else if (scheme.in === 'query') query.append(keyName, 'corpus-key');
      else if (scheme.in === 'cookie') cookies.push(`${keyName}=corpus-key`);
    }
  }
  return possible !== undefined;
}

/**
 * Documented status, a body the self-check found valid, never a 5xx. An operation that documents
 * no 2xx and no `default` (`GET /status/503`) is answered with a status it documents, whatever
 * its class: that is its documented answer.
 */
function judge(operation: Operation, status: number, text: string, selfCheck: string[], violations: string[]): { verdict: Verdict; detail: string } {
  const detail = `${status} ${(violations.join('; ') || selfCheck.join('; ') || text).slice(0, 240)}`;
  const responses = isNode(operation.value.responses) ? Object.keys(operation.value.responses).map((k) => k.toUpperCase()) : [];
  const documented = responses.includes(String(status)) || responses.includes(`${String(status)[0]}XX`) || responses.includes('DEFAULT');
  const onlyOthers = !responses.some((key) => key.startsWith('2') || key === 'DEFAULT');
  // OpenAPI 3.1 lets an operation document no response at all (or only 1xx): no answer can be documented.
  if (!responses.some((key) => !key.startsWith('1')) && status === 422) return { verdict: 'nothing documented', detail };
  if (violations.length > 0) return { verdict: status >= 500 ? '5xx' : 'request refused', detail };
  if (status >= 500 && !(documented && onlyOthers)) return { verdict: '5xx', detail };
  if (!documented) return { verdict: status >= 400 ? 'request refused' : 'undocumented status', detail };
  if (status >= 400 && !onlyOthers) return { verdict: 'request refused', detail };
  if (selfCheck.length > 0) return { verdict: 'invalid body', detail };
  return { verdict: 'documented', detail };
}
