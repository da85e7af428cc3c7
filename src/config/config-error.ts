// A problem with what the stub was given to start (spec, fixtures, flags). The CLI prints its
// message as one line and exits non-zero; it never carries a stack trace to the user.

export class ConfigError extends Error {
  /** @param source the file or flag at fault, named first in the message */
  /** @param problems each violation apart, where the problem lists several (a body's) */
  constructor(readonly source: string, readonly problem: string, readonly problems: readonly string[] = [problem]) {
    super(`${source}: ${problem}`);
    this.name = 'ConfigError';
  }
}
