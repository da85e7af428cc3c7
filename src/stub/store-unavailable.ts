// What a store in another process (Redis, the cluster primary) throws when it did not answer or
// refused a command: an outage, which a client is told of in plain words (503, retry). Anything
// else thrown while a request is answered is a bug, answered as an internal error.

/** A store outage; its message is said to the client as it is, so it holds plain words, never a library's own message. */
export class StoreUnavailable extends Error {
  override readonly name = 'StoreUnavailable';
}
