// X-Mock-Violations: how many problems an answer has and the first of them, as one header line
// (proxied answers checked against the document, templated fixtures that render invalid).

/** The header is at most this long: a count and the first messages. */
const VIOLATIONS_HEADER_BYTES = 1024;

/** `3 violations: a; b; c`, visible ASCII only, cut at the header's length. */
export function violationsHeaderText(messages: readonly string[]): string {
  const text = `${messages.length} violation${messages.length === 1 ? '' : 's'}: ${messages.join('; ')}`.replace(/[^\x20-\x7e]/g, '?');
  return text.length <= VIOLATIONS_HEADER_BYTES ? text : `${text.slice(0, VIOLATIONS_HEADER_BYTES - 3)}...`;
}
