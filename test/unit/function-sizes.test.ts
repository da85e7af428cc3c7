// Functions that read as their steps: a function of src/ whose body is over 60 lines says why in a
// comment just above it that names its length ("Longer than 60 lines on purpose: …"), as a file
// over 300 lines does at its top (file-sizes.test.ts), so a long function is a decision a reader
// can see, not a drift. Lengths are counted on the TypeScript syntax tree, from the body's opening
// brace to its closing one, for every function: declared, a method, an arrow or an expression.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');
const LIMIT = 60;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []);
}

/** `name:line N lines` for each function of `text` over LIMIT lines without a comment above it naming the limit. */
function unexplainedLongFunctions(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line;
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && node.body) {
      const length = lineOf(node.body.getEnd()) - lineOf(node.body.getStart()) + 1;
      if (length > LIMIT && !explained(text, commentAnchor(node))) {
        found.push(`${fileName}:${lineOf(node.body.getStart()) + 1} ${node.name?.getText() ?? '(anonymous)'} ${length} lines`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Where a comment about the function sits: above the function, or above the statement or member that holds an arrow or function expression. */
function commentAnchor(node: ts.Node): ts.Node {
  let anchor = node;
  while ((ts.isArrowFunction(anchor) || ts.isFunctionExpression(anchor) || ts.isVariableDeclaration(anchor) || ts.isVariableDeclarationList(anchor) || ts.isParenthesizedExpression(anchor) || ts.isAsExpression(anchor))
    && !ts.isSourceFile(anchor.parent)) anchor = anchor.parent;
  return anchor;
}

/** Whether the comments just above `node` name the limit (`60 lines`). */
function explained(text: string, node: ts.Node): boolean {
  const comments = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
  return comments.some((range) => new RegExp(`\\b${LIMIT} lines\\b`).test(text.slice(range.pos, range.end)));
}

/** A function whose body spans `lines` lines (braces included), with `comment` above it. */
function functionOf(lines: number, comment = '', form: 'declared' | 'arrow' = 'declared'): string {
  const body = Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');
  return form === 'declared' ? `${comment}export function long(): void {\n${body}\n}\n` : `${comment}const long = () => {\n${body}\n};\n`;
}

describe('src/ functions', () => {
  it(`over ${LIMIT} lines each say why in a comment just above them`, () => {
    const unexplained = sourceFiles(SRC).flatMap((file) => unexplainedLongFunctions(relative(SRC, file), readFileSync(file, 'utf8')));
    expect(unexplained).toEqual([]);
  });

  it.each([
    ['lists a declared function of 61 lines without a comment', functionOf(61), ['f.ts:1 long 61 lines']],
    ['lists an arrow function of 61 lines without a comment', functionOf(61, '', 'arrow'), ['f.ts:1 (anonymous) 61 lines']],
    ['lists a long function whose comment does not name the limit', functionOf(61, '/** Long, because. */\n'), ['f.ts:2 long 61 lines']],
    ['passes a function of 60 lines', functionOf(60), []],
    ['passes a declared function of 61 lines that says why', functionOf(61, `// Longer than ${LIMIT} lines on purpose: one table.\n`), []],
    ['passes an arrow function of 61 lines that says why above its statement', functionOf(61, `/** Longer than ${LIMIT} lines on purpose: one table. */\n`, 'arrow'), []],
  ])('%s', (_case, text, expected) => {
    expect(unexplainedLongFunctions('f.ts', text)).toEqual(expected);
  });
});
