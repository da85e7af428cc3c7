// Every option's default, in one place: the server's options (options.ts) and the fetch handler's
// read them here, a file that needs nothing of Node.
export const DEFAULTS = {
  spec: './openapi.yaml',
  fixtures: './fixtures',
  port: 4010,
  host: '127.0.0.1',
  maxBodyBytes: 1024 * 1024,
  maxStateBytes: 32 * 1024 * 1024,
  delayMs: 0,
  streamIntervalMs: 10,
  streamMaxEvents: 20,
  journalLimit: 1000,
  logFormat: 'text',
  strict: false,
  watch: true,
  cors: true,
  stateful: false,
  proxyTimeoutMs: 30_000,
  proxyErrors: false,
  drainMs: 0,
} as const;
