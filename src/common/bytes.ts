// Request bodies are bytes (a Uint8Array: Node's Buffer is one, and so is what a fetch Request
// gives), turned into text the same way in every runtime, so that the HTTP server and the fetch
// handler read, seed and journal a body alike. Web standards only: no Buffer in a browser.

// ignoreBOM keeps a byte order mark in the text, as Buffer#toString does.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const LENIENT_UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** The bytes as UTF-8 text, or null when they are not valid UTF-8. */
export function strictUtf8(bytes: Uint8Array): string | null {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return null;
  }
}

/** The bytes as UTF-8 text, each malformed sequence replaced by U+FFFD. */
export function utf8Text(bytes: Uint8Array): string {
  return LENIENT_UTF8.decode(bytes);
}

/**
 * One character per byte (ISO-8859-1). Written out because TextDecoder's `latin1` label is
 * windows-1252, which maps 0x80-0x9F elsewhere: the seed of generated data must not change.
 */
export function latin1Text(bytes: Uint8Array): string {
  let text = '';
  // In chunks: spreading a megabyte into one call would pass the engine's argument limit.
  for (let at = 0; at < bytes.length; at += CHUNK) text += String.fromCharCode(...bytes.subarray(at, at + CHUNK));
  return text;
}

const CHUNK = 8192;

/** The bytes in standard base64 with padding. */
export function base64Of(bytes: Uint8Array): string {
  return btoa(latin1Text(bytes));
}

/** The bytes that base64 text stands for, read as leniently as Node's Buffer reads it (missing padding, a dangling last character). */
export function bytesOfBase64(text: string): Uint8Array {
  let bare = text.replace(/=+$/, '');
  if (bare.length % 4 === 1) bare = bare.slice(0, -1); // six bits make no byte
  const chars = atob(bare);
  const bytes = new Uint8Array(chars.length);
  for (let i = 0; i < chars.length; i++) bytes[i] = chars.charCodeAt(i);
  return bytes;
}
