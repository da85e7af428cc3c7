// Start-up checks of the templates in a scenario's body and headers: each string parses, calls only
// known helpers (faker's methods included), and names only what the request can hold: its method,
// the operation's path parameters, query and headers, and body fields its schema declares. A
// misspelt name would otherwise render as an empty string at every request, silently.
import { ConfigError } from '../config/config-error.js';
import type { CompiledOperation } from '../openapi/compiled-model.js';
import { nearestName } from '../common/nearest-name.js';
import { fakerMethod, fakerMethodNames } from '../generate/faker-methods.js';
import { escapePointerToken } from '../common/json-pointer.js';
import { isObject } from '../common/json-value.js';
import { TemplateEngineMissing, BUILT_IN_HELPERS, TEMPLATE_HELPERS, compileTree, holdsTemplate, offsetMs, parseTemplate, type RenderTree } from '../engine/templates.js';
import { generatorLibraries } from '../generate/generator-libraries.js';
import { cheapRandomizer } from '../generate/seeded-random.js';

const REQUEST_PARTS = ['method', 'path', 'query', 'headers', 'body'];
const ROOTS = ['request', 'session'];
const HELPERS: readonly string[] = [...TEMPLATE_HELPERS, ...BUILT_IN_HELPERS];

/** Checks every template in `value` (found at `pointer` of `file`) and compiles them; null when it holds none. */
export function checkedTemplates(file: string, pointer: string, operation: CompiledOperation, value: unknown): RenderTree | null {
  forEachString(value, pointer, (text, at) => {
    if (!holdsTemplate(text)) return;
    let program: hbs.AST.Program;
    try {
      program = parseTemplate(text) as hbs.AST.Program;
    } catch (error) {
      if (error instanceof TemplateEngineMissing) throw new ConfigError(file, `${at}: ${error.message}`);
      throw new ConfigError(file, `${at}: not a valid template: ${firstLine((error as Error).message)}`);
    }
    checkProgram(program, true, (message) => new ConfigError(file, `${at}: ${message}`), operation);
  });
  return compileTree(value);
}

function forEachString(value: unknown, pointer: string, visit: (text: string, pointer: string) => void): void {
  if (typeof value === 'string') visit(value, pointer);
  else if (Array.isArray(value)) value.forEach((item, i) => forEachString(item, `${pointer}/${i}`, visit));
  else if (isObject(value)) for (const [key, member] of Object.entries(value)) forEachString(member, `${pointer}/${escapePointerToken(key)}`, visit);
}

type Problem = (message: string) => ConfigError;

/** `rooted`: paths here read the whole context (outside `each`/`with` blocks, whose paths are relative). */
function checkProgram(program: hbs.AST.Program, rooted: boolean, problem: Problem, operation: CompiledOperation): void {
  for (const statement of program.body) {
    if (statement.type === 'MustacheStatement' || statement.type === 'SubExpression') checkCall(statement as hbs.AST.MustacheStatement, rooted, problem, operation);
    else if (statement.type === 'BlockStatement') {
      const block = statement as hbs.AST.BlockStatement;
      checkCall(block, rooted, problem, operation);
      const name = (block.path as hbs.AST.PathExpression).original;
      const keepsContext = name === 'if' || name === 'unless';
      checkProgram(block.program, rooted && keepsContext, problem, operation);
      if (block.inverse) checkProgram(block.inverse, rooted && keepsContext, problem, operation);
    }
  }
}

function checkCall(call: hbs.AST.MustacheStatement | hbs.AST.BlockStatement | hbs.AST.SubExpression, rooted: boolean, problem: Problem, operation: CompiledOperation): void {
  const path = call.path as hbs.AST.PathExpression;
  const takesArguments = call.params.length > 0 || (call.hash?.pairs.length ?? 0) > 0 || call.type === 'BlockStatement' || call.type === 'SubExpression';
  const name = path.original;
  if (takesArguments || (path.parts.length === 1 && HELPERS.includes(name))) {
    if (!HELPERS.includes(name)) throw problem(`unknown helper "${name}"${didYouMean(name, HELPERS)}; known: ${HELPERS.join(', ')}`);
    checkHelperArguments(name, call, problem);
  } else checkPath(path, rooted, problem, operation);
  for (const param of call.params) checkExpression(param, rooted, problem, operation);
  for (const pair of call.hash?.pairs ?? []) checkExpression(pair.value, rooted, problem, operation);
}

function checkExpression(expression: hbs.AST.Expression, rooted: boolean, problem: Problem, operation: CompiledOperation): void {
  if (expression.type === 'SubExpression') checkCall(expression as hbs.AST.SubExpression, rooted, problem, operation);
  else if (expression.type === 'PathExpression') checkPath(expression as hbs.AST.PathExpression, rooted, problem, operation);
}

function checkHelperArguments(name: string, call: hbs.AST.MustacheStatement | hbs.AST.BlockStatement | hbs.AST.SubExpression, problem: Problem): void {
  const literal = call.params[0]?.type === 'StringLiteral' ? (call.params[0] as hbs.AST.StringLiteral).value : null;
  if (name === 'faker' && literal !== null) {
    let faker = null;
    try {
      faker = generatorLibraries().createFaker(cheapRandomizer());
    } catch {
      return; // faker not loaded here (a page that serves no faker data): checked when rendered
    }
    if (!fakerMethod(faker, literal)) throw problem(`faker has no method "${literal}"${didYouMean(literal, fakerMethodNames(faker))} (write it as faker's module and method: 'person.fullName', 'internet.email')`);
  }
  if (name === 'now') {
    const offset = call.hash?.pairs.find((pair) => pair.key === 'offset')?.value;
    if (offset?.type === 'StringLiteral' && offsetMs((offset as hbs.AST.StringLiteral).value) === null) {
      throw problem(`now's offset "${(offset as hbs.AST.StringLiteral).value}" is not an offset: write -2d, +3h, 30m, 10s or 1w, within a century`);
    }
  }
}

function checkPath(path: hbs.AST.PathExpression, rooted: boolean, problem: Problem, operation: CompiledOperation): void {
  // `this`, `@index` and paths inside `each`/`with` are relative to what the block gives.
  if (!rooted || path.data || path.parts.length === 0 || path.original.startsWith('this') || path.original.startsWith('..')) return;
  const [root, part, ...rest] = path.parts;
  if (!ROOTS.includes(root)) throw problem(`"${path.original}" names nothing: a template reads request.* and session${didYouMean(root, ROOTS)}`);
  if (root !== 'request' || part === undefined) return;
  if (!REQUEST_PARTS.includes(part)) throw problem(`"${path.original}": a request has ${REQUEST_PARTS.join(', ')}${didYouMean(part, REQUEST_PARTS)}`);
  if (part === 'path' && rest.length > 0) {
    const names = pathParameters(operation.path);
    if (!names.includes(rest[0])) throw problem(`"${path.original}": ${operation.key} has no path parameter "${rest[0]}"${didYouMean(rest[0], names)}; it has ${names.join(', ') || 'none'}`);
  }
  if (part === 'body' && rest.length > 0) {
    if (!operation.body) throw problem(`"${path.original}": ${operation.key} takes no request body`);
    for (let depth = 0; depth < rest.length; depth++) {
      const known = operation.body.fieldNames(rest.slice(0, depth));
      if (known === null) return;
      if (!known.includes(rest[depth]) && !/^\d+$/.test(rest[depth])) {
        const at = ['request', 'body', ...rest.slice(0, depth)].join('.');
        throw problem(`"${path.original}": the request body of ${operation.key} has no field "${rest[depth]}" at ${at}${didYouMean(rest[depth], known)}; it has ${known.join(', ')}`);
      }
    }
  }
}

function pathParameters(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
}

function didYouMean(name: string, known: readonly string[]): string {
  const near = nearestName(name, known);
  return near ? ` (did you mean "${near}"?)` : '';
}

function firstLine(text: string): string {
  return text.split('\n').filter((line) => line.trim() !== '' && !/^-+\^$/.test(line.trim())).join(' ').slice(0, 300);
}
