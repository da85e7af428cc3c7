// The one builder of RFC 9457 problem+json bodies: the stub's own refusals (in the engine and in
// http/send-problem.ts) and the API's errors where no documented shape fits all use it, so every
// problem the stub writes has the same members.
import statuses from 'statuses';
import type { RenderedError } from './compiled-model.js';

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** `extra` members (the known scenario names, the documented statuses) help the client fix its request. */
export function problem(status: number, detail: string, violations: string[] = [], extra: Record<string, unknown> = {}): RenderedError & { contentType: string } {
  const body: Record<string, unknown> = { type: 'about:blank', title: statuses.message[status] ?? 'Error', status, detail, ...extra };
  if (violations.length > 0) body.violations = violations;
  return { contentType: PROBLEM_MEDIA_TYPE, body, headers: NO_HEADERS };
}
