// --log-format json: every line the process writes, on stdout and stderr, is one JSON object. The
// request lines are JSON already (request-log.ts); every other line (the listening banner, notes,
// warnings, reloads, the shutdown summary, errors) becomes {time, level, message} here.
import { oneLineJson } from './request-log.js';

export type Level = 'info' | 'note' | 'warning' | 'error';

/** The level a text line says it has by its prefix (`warning: …`, `note: …`), else `otherwise`. */
const PREFIXED = /^(warning|note): /;

/** Text of one or more lines -> the same lines as JSON objects; lines that are JSON objects already pass as they are. */
export function asJsonLines(text: string, otherwise: Level): string {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  return lines.map((line) => (isJsonObject(line) ? line : jsonLine(line, otherwise))).join('\n') + '\n';
}

function jsonLine(line: string, otherwise: Level): string {
  const prefix = PREFIXED.exec(line);
  const level = prefix ? (prefix[1] as Level) : otherwise;
  const message = prefix ? line.slice(prefix[0].length) : line;
  return oneLineJson({ time: new Date().toISOString(), level, message });
}

function isJsonObject(line: string): boolean {
  if (!line.startsWith('{') || !line.endsWith('}')) return false;
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}
