// What the admin endpoints read from a query string, read one way for all of them.
import type { Request } from 'express';

/** The session an admin request names (`?session=NAME`); undefined for the default one; null when it names two. */
export function sessionAsked(req: Request): string | undefined | null {
  if (Array.isArray(req.query.session)) return null;
  const session = typeof req.query.session === 'string' ? req.query.session.trim() : '';
  return session === '' ? undefined : session;
}

/** A query value given once, as text; undefined otherwise. */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A page's `limit` or `offset`: undefined when not given, null when not a whole number from `min`. */
export function pageQuery(value: unknown, min: number): number | undefined | null {
  if (value === undefined) return undefined;
  const number = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  return number >= min ? number : null;
}
