// A body read from a web stream with its bytes counted as they arrive: what lies past the limit is
// never read (the stream is cancelled), whatever length the sender announced. Web APIs only, so
// the fetch handler in a page uses it as the document download does in Node.

/** The bytes read, at most `limit` of them; `exceeded` when the stream held more. */
export async function readCapped(stream: ReadableStream<Uint8Array> | null, limit: number): Promise<{ bytes: Uint8Array; exceeded: boolean }> {
  if (stream === null) return { bytes: new Uint8Array(0), exceeded: false };
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.length > limit) {
      await reader.cancel();
      return { bytes: concat(chunks, size), exceeded: true };
    }
    size += value.length;
    chunks.push(value);
  }
  return { bytes: concat(chunks, size), exceeded: false };
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}
