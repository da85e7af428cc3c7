// A `multipart/form-data` body split into its parts with busboy, here at the edge: the parser is a
// stream that finishes asynchronously, while the engine answers synchronously from plain values.
// Only requests that declare multipart pay for it; the body was already read whole (--max-body).
import { Busboy, type BusboyHeaders } from '@fastify/busboy';
import type { FormPart, PlainRequest } from '../common/plain-http.js';
import { formKind } from '../openapi/media-types.js';

/** Parts beyond this are not kept (busboy's `partsLimit`), so a body of tiny parts stays cheap. */
const MAX_PARTS = 1000;

export function isMultipart(contentType: string | string[] | undefined): boolean {
  return typeof contentType === 'string' && formKind(contentType) === 'multipart';
}

/** Sets `request.multipart` (the parts, or why they could not be read), then calls `done` once. */
export function readMultipart(request: PlainRequest, done: () => void): void {
  const parts: FormPart[] = [];
  let finished = false;
  const finish = (outcome: PlainRequest['multipart']) => {
    if (finished) return;
    finished = true;
    request.multipart = outcome;
    done();
  };
  let parser: InstanceType<typeof Busboy>;
  try {
    parser = new Busboy({ headers: request.headers as BusboyHeaders, limits: { parts: MAX_PARTS } });
  } catch (error) {
    return finish({ error: reason(error) }); // no boundary, or not multipart after all
  }
  parser.on('field', (name, value, _nameTruncated, _valueTruncated, _encoding, contentType) => {
    parts.push({ name, value, contentType });
  });
  parser.on('file', (name, stream, filename, _encoding, contentType) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => parts.push({ name, value: Buffer.concat(chunks).toString('utf8'), filename, contentType }));
  });
  parser.on('partsLimit', () => finish({ error: `more than ${MAX_PARTS} parts` }));
  parser.on('error', (error) => finish({ error: reason(error) }));
  parser.on('finish', () => finish({ parts }));
  parser.end(request.body);
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
