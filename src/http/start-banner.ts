// The lines a start prints once the port is open: the document's title and URL, the operations a
// browser or curl can take as they are, where health and the journal live, and what stateful mode
// made of the document. One text for a single process and for --workers (whose first worker hands
// it to the primary), so a fleet's start reads like a single stub's.
import { ADMIN_OFF_NOTE } from '../config/options.js';
import type { RunningStub } from './server.js';

/**
 * The operations listed, at most: a screenful. GitHub's document would print 1,223 lines, and a
 * terminal or CI log would show only their end.
 */
const LISTED_OPERATIONS = 25;

/** `workers`: how many processes serve the port, named on the first line when more than one. */
export function startBanner(running: RunningStub, workers = 1): string {
  const served = running.stub.served();
  const lines = [`${served.title} stub listening on ${running.url}${workers > 1 ? ` with ${workers} workers` : ''}`];
  // Several documents: where each one lives, before the operations of all.
  for (const document of served.documents) lines.push(`  ${document.name} at ${running.url}${document.mount}/  (${document.file})`);
  // The method in a column of its own, then the URL a browser or curl can take as it is.
  for (const operation of served.operations.slice(0, LISTED_OPERATIONS)) lines.push(`  ${operation.method.padEnd(7)} ${running.url}${operation.path}`);
  const unlisted = served.operations.length - LISTED_OPERATIONS;
  if (unlisted > 0) lines.push(`  … and ${unlisted.toLocaleString('en-US')} more operations${running.adminApi ? `: the admin page lists them all, ${running.url}/__admin/` : ''}`);
  if (running.adminApi) lines.push(`  health: ${running.url}/__admin/health   journal: ${running.url}/__admin/requests`);
  else lines.push(`  ${ADMIN_OFF_NOTE}`);
  if (served.stateful !== null) lines.push(`  ${served.stateful}`);
  return lines.join('\n') + '\n';
}
