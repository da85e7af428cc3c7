// Pieces of the document shapes company APIs use (Asana's tasks by gid in a `data` envelope,
// Twilio's messages under an account with `.json` paths and patterned sids), written once for the
// documents of the tests of stateless answers and of stateful mode on these shapes.

/** Twilio's message sid: SM and 32 hex digits. */
export const SID = '^SM[0-9a-fA-F]{32}$';

/** Twilio's `sid` property, patterned, with the example a document gives (a line of a schema's properties). */
export const SID_PROPERTY = `sid: { type: string, pattern: '${SID}', example: SM1234567890abcdef1234567890abcdef }`;

/** An OpenAPI 3.0.3 document's first lines, up to the `paths:` the test's own paths follow. */
export function documentHead(title: string): string {
  return `openapi: 3.0.3\ninfo: { title: ${title}, version: '1' }\npaths:`;
}

/** A path item's `parameters`, each a required string path parameter, as one YAML line. */
export function pathParameters(...names: string[]): string {
  return `parameters: [${names.map((name) => `{ name: ${name}, in: path, required: true, schema: { type: string } }`).join(', ')}]`;
}
