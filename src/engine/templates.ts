// Templates in scripted answers: any string of a scenario's body or headers may hold Handlebars
// expressions over the request (`{{request.body.name}}`, `{{request.path.id}}`) and a few seeded
// helpers. Compiled once when the fixture is loaded; rendered per request. A string that is one
// whole expression keeps the value's type, so `id: "{{request.body.id}}"` answers the number sent.
import type HandlebarsModule from 'handlebars';
import type { Faker } from '@faker-js/faker';
import { cheapRandomizer, fnv1a } from '../generate/seeded-random.js';
import { generatorLibraries } from '../generate/generator-libraries.js';
import { fakerMethod } from '../generate/faker-methods.js';
import { isObject } from '../common/json-value.js';
import { stringifyExact } from '../common/exact-json.js';
import type { ExactJson, PlainRequest } from '../common/plain-http.js';

/** What an expression can read. */
export interface TemplateContext {
  request: {
    method: string;
    path: Record<string, string>;
    query: Record<string, string | string[]>;
    /** Lower-case names. */
    headers: Readonly<Record<string, string | string[] | undefined>>;
    body: unknown;
  };
  /** The request's session (`X-Mock-Session`): renders as its name. */
  session: { name: string; toString(): string };
}

/**
 * Renders one value tree for a request; `seedKey` makes the seeded helpers repeat for the same
 * request; `problems` hears of each string whose rendering failed (it renders as '').
 */
export type RenderTree = (context: TemplateContext, seedKey: string, problems?: string[]) => unknown;

/** The helpers a template may call, besides Handlebars' own block helpers. */
export const TEMPLATE_HELPERS = ['faker', 'uuid', 'now', 'randomInt', 'json', 'default'] as const;
export const BUILT_IN_HELPERS = ['if', 'unless', 'each', 'with', 'lookup', 'log'] as const;

type Handlebars = typeof HandlebarsModule;

/**
 * Loaded by loadTemplateEngine() before fixtures are read: the server always, a page (the fetch
 * handler, MSW) only when its fixtures hold a template, since the engine is a tenth of its bundle.
 */
let handlebars: Handlebars | null = null;
let loading: Promise<void> | null = null;

export function loadTemplateEngine(): Promise<void> {
  return (loading ??= import('handlebars').then((module) => {
    const created = ((module as unknown as { default?: Handlebars }).default ?? (module as unknown as Handlebars)).create();
    registerHelpers(created);
    handlebars = created;
  }));
}

function engine(): Handlebars {
  if (!handlebars) throw new TemplateEngineMissing();
  return handlebars;
}

/** A template met where the engine was not loaded (a page whose fixtures held none when it opened). */
export class TemplateEngineMissing extends Error {
  constructor() {
    super('templates need the template engine, loaded when the fixtures given at start hold a template ({{...}})');
  }
}

/** The request being rendered: the seeded helpers draw from it. Rendering is synchronous, so one slot serves. */
let drawing: { next: () => number; seed: number; faker: Faker | null; problems: string[] | null } | null = null;

function random(): number {
  return drawing ? drawing.next() : Math.random();
}

function registerHelpers(instance: Handlebars): void {
  instance.registerHelper('faker', (method: unknown) => {
    if (!drawing) return '';
    drawing.faker ??= generatorLibraries().createFaker(seededRandomizer(drawing.seed));
    const call = fakerMethod(drawing.faker, String(method));
    return call ? call() : '';
  });
  instance.registerHelper('uuid', () => {
    const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
    hex[12] = '4';
    hex[16] = ((Math.floor(random() * 4) + 8)).toString(16);
    const text = hex.join('');
    return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
  });
  instance.registerHelper('now', (options: { hash?: { offset?: unknown } }) => {
    const offset = options?.hash?.offset;
    return new Date(Date.now() + (offset === undefined ? 0 : offsetMs(String(offset)) ?? 0)).toISOString();
  });
  instance.registerHelper('randomInt', (min: unknown, max: unknown) => {
    const low = Math.ceil(Number(min));
    const high = Math.floor(Number(max));
    if (!Number.isFinite(low) || !Number.isFinite(high) || high < low) return low;
    return low + Math.floor(random() * (high - low + 1));
  });
  // Numbers kept exact (an int64 sent above 2^53 keeps its digits).
  instance.registerHelper('json', (value: unknown) => new instance.SafeString(stringifyExact(value ?? null, true)));
  instance.registerHelper('default', (value: unknown, fallback: unknown) => (value === undefined || value === null || value === '' ? fallback : value));
  // The whole-expression form: the value is kept aside instead of printed.
  instance.registerHelper('__keep', (value: unknown) => {
    kept = value;
    return '';
  });
}

/** What the whole-expression helper kept. */
let kept: unknown;

/** `-2d`, `+3h`, `30m`, `10s`, `1w`: milliseconds; null when it is none of those. */
export function offsetMs(text: string): number | null {
  const match = /^\s*([+-]?)(\d+)\s*([smhdw])\s*$/.exec(text);
  if (!match) return null;
  const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[match[3] as 's' | 'm' | 'h' | 'd' | 'w'];
  const ms = (match[1] === '-' ? -1 : 1) * Number(match[2]) * unit;
  // Within a century either way: beyond, a date is no longer one a client can read.
  return Math.abs(ms) <= 100 * 366 * 86_400_000 ? ms : null;
}

function seededRandomizer(seed: number) {
  const randomizer = cheapRandomizer();
  randomizer.seed(seed);
  return randomizer;
}

/** Whether a string holds a template expression. */
export function holdsTemplate(text: string): boolean {
  return text.includes('{{');
}

/** The one expression a string is made of (`{{request.body.id}}`), without its braces; null when it is more than that. */
export function wholeExpression(text: string): string | null {
  const match = /^\{\{~?\s*([^{}]+?)\s*~?\}\}$/.exec(text.trim());
  return match && !/^[#/^!>&]/.test(match[1]) ? match[1] : null;
}

/** Compiles one string: a function of the context, or null when the string holds no template. Throws Handlebars' parse error. */
function compileString(text: string): ((context: TemplateContext) => unknown) | null {
  const render = compileOne(text);
  if (render === null) return null;
  // A helper that throws for what a request sent (an offset beyond the calendar, a faker method
  // that wants arguments) renders '' and says so, never a 500.
  return (context) => {
    try {
      return render(context);
    } catch (error) {
      drawing?.problems?.push(`the template ${JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text)} failed to render: ${(error as Error).message}`);
      return '';
    }
  };
}

function compileOne(text: string): ((context: TemplateContext) => unknown) | null {
  if (!holdsTemplate(text)) return null;
  const whole = wholeExpression(text);
  if (whole !== null) {
    const ast = engine().parse(`{{${whole}}}`);
    const statement = ast.body[0] as hbs.AST.MustacheStatement;
    const call = statement.params.length > 0 || (statement.hash?.pairs.length ?? 0) > 0 || isHelperName(statement.path);
    const template = engine().compile(call ? `{{__keep (${whole})}}` : `{{__keep ${whole}}}`, { noEscape: true });
    return (context) => {
      kept = undefined;
      template(context);
      const value = kept;
      kept = undefined;
      // A session renders as its name; a missing value as an empty string, as in a longer text.
      if (value === context.session) return context.session.name;
      return value === undefined ? '' : value instanceof engine().SafeString ? value.toString() : value;
    };
  }
  const template = engine().compile(text, { noEscape: true });
  return (context) => template(context);
}

function isHelperName(path: hbs.AST.Expression): boolean {
  return path.type === 'PathExpression' && (path as hbs.AST.PathExpression).parts.length === 1
    && (TEMPLATE_HELPERS as readonly string[]).includes((path as hbs.AST.PathExpression).original);
}

/** A value tree whose strings may hold templates, compiled once; null when none does. */
export function compileTree(value: unknown): RenderTree | null {
  const render = compileNode(value);
  if (render === null) return null;
  return (context, seedKey, problems) => {
    const seed = fnv1a(seedKey);
    const randomizer = seededRandomizer(seed);
    drawing = { next: () => randomizer.next(), seed, faker: null, problems: problems ?? null };
    try {
      return render(context);
    } finally {
      drawing = null;
    }
  };
}

function compileNode(value: unknown): ((context: TemplateContext) => unknown) | null {
  if (typeof value === 'string') return compileString(value);
  if (Array.isArray(value)) {
    const items = value.map(compileNode);
    if (items.every((item) => item === null)) return null;
    return (context) => value.map((item, i) => (items[i] ? items[i]!(context) : item));
  }
  if (isObject(value)) {
    const entries = Object.entries(value).map(([key, member]) => [key, member, compileNode(member)] as const);
    if (entries.every(([, , render]) => render === null)) return null;
    return (context) => {
      const out: Record<string, unknown> = {};
      for (const [key, member, render] of entries) Object.defineProperty(out, key, { value: render ? render(context) : member, enumerable: true, writable: true, configurable: true });
      return out;
    };
  }
  return null;
}

/** Handlebars' syntax tree of a string, for the start-up checks. */
// Typed `unknown` here, so the package's declarations never name Handlebars' global `hbs` types.
export function parseTemplate(text: string): unknown {
  return engine().parse(text);
}

/** What a scenario's templates read: the request as the client sent it, its session. */
export function templateContext(request: PlainRequest, pathParams: Record<string, string>, query: URLSearchParams, body: ExactJson | null, session: string): TemplateContext {
  const queryValues: Record<string, string | string[]> = {};
  for (const name of new Set(query.keys())) {
    const values = query.getAll(name);
    Object.defineProperty(queryValues, name, { value: values.length === 1 ? values[0] : values, enumerable: true });
  }
  return {
    request: { method: request.method, path: pathParams, query: queryValues, headers: request.headers, body: body ? body.exact ?? body.value : undefined },
    session: { name: session, toString: () => session },
  };
}
