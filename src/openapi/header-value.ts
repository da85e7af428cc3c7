// Text from a spec or a fixture that ends up in a response header. Node refuses characters outside
// visible ASCII in header values, and a spec may name its examples (or give header examples) in any
// script, so such text is sent percent-encoded rather than crashing the answer.

export function headerSafe(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) ? text : encodeURIComponent(text);
}
