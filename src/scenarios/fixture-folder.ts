// Reads the fixtures folder (one YAML or JSON file per operation) for load-fixtures.ts, which
// checks its scenarios against the spec. The only part of scenarios/ that touches the disk.
import { readdir, readFile, stat } from 'node:fs/promises';
import type { Dirent } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config/config-error.js';
import { parseYamlFile } from '../config/parse-yaml.js';
import type { CompiledSpec } from '../openapi/compiled-model.js';
import { FIXTURE_WITHOUT_OPERATION, scenarioTable, type FixtureScope, type FixtureSource, type LoadedFixtures } from './load-fixtures.js';
import type { DocumentWarning } from '../openapi/document-warnings.js';

/**
 * Reads every .json/.yaml/.yml file of `dir`. A missing folder means no scenarios: a warning when
 * it was `named` (a typo in --fixtures would otherwise look like a folder without scenarios), not
 * when it is the default `./fixtures` a project without scenarios simply does not have.
 */
export async function loadFixtures(dir: string, compiled: CompiledSpec, named: boolean, scope?: FixtureScope): Promise<LoadedFixtures> {
  let entries: Dirent[];
  try {
    entries = (await readdir(dir, { withFileTypes: true })).filter((entry) => /\.(json|ya?ml)$/i.test(entry.name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { scenarios: new Map(), sequences: new Map(), triggers: new Map(), warnings: [], said: named ? [`warning: ${dir}: no such folder; no scenarios are served`] : [] };
    throw new ConfigError(dir, `cannot read the fixtures folder (${(error as NodeJS.ErrnoException).code})`);
  }
  const warnings: DocumentWarning[] = [];
  // Only regular files are read: a FIFO named `x.yaml` would block the start (and every reload)
  // forever, a folder named `x.yaml` cannot be read at all.
  const names: string[] = [];
  for (const entry of entries) {
    // A symbolic link counts by what it points to (stat reads no content, so a FIFO cannot block it).
    const isFile = entry.isFile() || (entry.isSymbolicLink() && (await stat(join(dir, entry.name)).catch(() => null))?.isFile());
    if (isFile) names.push(entry.name);
    else warnings.push({ file: join(dir, entry.name), pointer: '', kind: 'fixture that is not a file', reason: 'not a regular file; skipped' });
  }
  names.sort();
  const texts: Array<{ file: string; text: string }> = [];
  for (const name of names) texts.push({ file: join(dir, name), text: await readFile(join(dir, name), 'utf8') });
  const operations = new Set<string>();
  const loaded = scenarioTable(parsedInTurn(texts, operations), compiled, scope);
  if (!named && forAnotherDocument(loaded)) {
    return { ...loaded, warnings, said: [`note: ${dir} (the default --fixtures folder) holds fixtures for another document only (${[...operations].join(', ')}), so none are served; name this document's folder with --fixtures DIR`] };
  }
  return { ...loaded, warnings: [...warnings, ...loaded.warnings] };
}

/**
 * Whether every fixture names an operation the document lacks: the default folder of a clone
 * (the Plant Store's) when `--spec` names another document. One note then, not a warning per
 * file the user never wrote; a folder they name keeps its warnings (a typo is worth one).
 */
function forAnotherDocument(loaded: LoadedFixtures): boolean {
  return loaded.scenarios.size === 0 && loaded.triggers.size === 0 && loaded.warnings.length > 0 && loaded.warnings.every((warning) => warning.kind === FIXTURE_WITHOUT_OPERATION);
}

/**
 * Each file parsed only when its turn comes, so the first broken file named is the first in order;
 * the operations the files name are added to `operations` (for the note on another document's).
 */
function* parsedInTurn(texts: ReadonlyArray<{ file: string; text: string }>, operations: Set<string>): Iterable<FixtureSource> {
  for (const { file, text } of texts) {
    const value = parseYamlFile(file, text);
    if (value !== null && typeof value === 'object' && 'operation' in value) operations.add(String(value.operation));
    yield { file, value };
  }
}
