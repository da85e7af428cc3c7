// Every flag of the command line, declared once: its name, the StubOptions key it fills, how its
// text is read, its environment variable, and its --help text. The CLI's parser (cli.ts), the
// --help text (cli-help.ts) and a test against docs/command-line.md all read this table; each
// option's default and check stay in its one resolver (engine-options.ts for what the engine reads,
// which the fetch handler takes too; options.ts for the server's own), so adding an option means
// a row here, its field and check there, and its line in the doc.
import type { StubOptions } from './options.js';
import { DEFAULTS } from './defaults.js';

/**
 * How a flag's text becomes its option's value: `text` as given; `texts` repeatable, one value
 * as itself and several as a list; `list` repeatable into a list; `whole` a whole number;
 * `share` from 0 to 1; `delay` milliseconds or a spread; `commas` a comma-separated list;
 * `pairs` repeatable NAME=VALUE into an object; `switch` on when given; `off` false when given.
 */
export type Reading = 'text' | 'texts' | 'list' | 'whole' | 'share' | 'delay' | 'commas' | 'pairs' | 'switch' | 'off';

export interface CommandLineOption {
  /** The flag without its dashes (`spec` for `--spec`). */
  flag: string;
  short?: string;
  /** The value's name in --help (`FILE|URL`); none for a switch. */
  value?: string;
  reading: Reading;
  /** The StubOptions key it fills; null for what only the command line does (--workers, --quiet, --help, --version). */
  key: keyof StubOptions | null;
  /** The environment variable read when the flag is not given. */
  env?: string;
  /** Its lines in --help, after the flag column. */
  help: string;
}

export const COMMAND_LINE_OPTIONS = [
  { flag: 'spec', value: 'FILE|URL', reading: 'texts', key: 'spec', help: `OpenAPI document to serve, a file or an http(s) URL (default ${DEFAULTS.spec});\nrepeatable: several documents on one port, each under its first\nserver's path or one given as --spec /orders=orders.yaml` },
  { flag: 'overlay', value: 'FILE', reading: 'list', key: 'overlays', help: 'an OpenAPI Overlay (1.0) applied to the document before it is read;\nrepeatable, applied in order, watched like the document\n(/orders=FILE: only to the document mounted at /orders)' },
  { flag: 'fixtures', value: 'DIR', reading: 'texts', key: 'fixtures', help: `folder of scenario fixtures (default ${DEFAULTS.fixtures}); with several\ndocuments, also one per document: --fixtures /orders=DIR` },
  { flag: 'port', value: 'N', reading: 'whole', key: 'port', env: 'PORT', help: `port, 0 picks a free one (default ${DEFAULTS.port}, env PORT)` },
  { flag: 'host', value: 'H', reading: 'text', key: 'host', env: 'HOST', help: `address to bind (default ${DEFAULTS.host}, env HOST)` },
  { flag: 'token', value: 'T', reading: 'list', key: 'tokens', help: 'accepted bearer token, repeatable (env STUB_TOKENS, comma-separated);\ndefault: any non-empty token' },
  { flag: 'admin-token', value: 'T', reading: 'text', key: 'adminToken', env: 'STUB_ADMIN_TOKEN', help: 'bearer token for /__admin (required when --host is not loopback,\nwhere --compat prism turns /__admin off instead; env STUB_ADMIN_TOKEN)' },
  { flag: 'seed', value: 'N', reading: 'whole', key: 'seed', help: 'another data set for generated data (default 0): the same\nseed and request give the same bytes, across restarts too' },
  { flag: 'max-body', value: 'BYTES', reading: 'whole', key: 'maxBodyBytes', help: `largest request body (default ${DEFAULTS.maxBodyBytes})` },
  { flag: 'max-state', value: 'BYTES', reading: 'whole', key: 'maxStateBytes', help: `stateful mode: the most bytes of stored items kept (default\n${DEFAULTS.maxStateBytes}); a change beyond it is 422` },
  { flag: 'delay', value: 'MS', reading: 'delay', key: 'delayMs', help: 'delay before every answer (default 0; X-Mock-Delay overrides);\na spread draws each wait (seeded): 100-800 uniform,\nmedian=200,p99=2000 log-normal' },
  { flag: 'chaos', value: 'P', reading: 'share', key: 'chaos', help: "answer a share P (0 to 1) of every operation's requests with one of\nits documented 4xx/5xx answers (seeded: the same order, the same picks)" },
  { flag: 'chaos-faults', value: 'F,…', reading: 'commas', key: 'chaosFaults', help: 'let --chaos also inject these faults (reset, close, timeout, malformed)' },
  { flag: 'stream-interval', value: 'MS', reading: 'whole', key: 'streamIntervalMs', help: `milliseconds between a streamed answer's events (text/event-stream,\nJSON lines), the first sent at once (default ${DEFAULTS.streamIntervalMs})` },
  { flag: 'stream-max-events', value: 'N', reading: 'whole', key: 'streamMaxEvents', help: `the most events a streamed answer sends, its terminator aside\n(default ${DEFAULTS.streamMaxEvents})` },
  { flag: 'journal-limit', value: 'N', reading: 'whole', key: 'journalLimit', help: `journal entries kept (default ${DEFAULTS.journalLimit})` },
  { flag: 'coverage-out', value: 'FILE', reading: 'text', key: 'coverageOut', help: 'write the coverage report as JSON when the server stops' },
  { flag: 'workers', value: 'N', reading: 'whole', key: null, help: 'serve one port from N processes acting as one server (one state,\njournal, coverage and sticky scenario); a dead worker is replaced' },
  { flag: 'stateful', reading: 'switch', key: 'stateful', help: 'remember what clients create, update and delete (resources inferred\nfrom the document: POST /plants, then GET /plants/{id})' },
  { flag: 'state-file', value: 'FILE', reading: 'text', key: 'stateFile', help: "stateful mode's resources, loaded at start and written after changes\n(implies --stateful; a file the stub cannot write stops the start)" },
  { flag: 'seed-items', value: 'N', reading: 'whole', key: 'seedItems', help: "stateful mode starts with the list examples' items and N generated\nitems per resource (default 0; a state file that holds state wins;\nimplies --stateful)" },
  { flag: 'webhook', value: 'NAME=URL', reading: 'pairs', key: 'webhooks', help: "send the document's webhook NAME (its key under webhooks) to URL;\nrepeatable" },
  { flag: 'callback-hosts', value: 'H,…', reading: 'commas', key: 'callbackHosts', help: "hosts callbacks may reach, * for any (default: this machine when\nbound to loopback, and the webhook targets' hosts)" },
  { flag: 'state-store', value: 'URL', reading: 'text', key: 'stateStore', help: 'redis://HOST:PORT/DB: instances sharing it act as one server (stateful\nstore, journal, coverage, sticky scenario)' },
  { flag: 'proxy', value: 'URL', reading: 'text', key: 'proxy', help: 'forward requests to the real API at URL, check both sides against the\ndocument, answer from the mock what it lacks (see docs/proxy.md)' },
  { flag: 'proxy-timeout', value: 'MS', reading: 'whole', key: 'proxyTimeoutMs', help: `wait this long for the upstream's answer headers, then 504\n(default ${DEFAULTS.proxyTimeoutMs})` },
  { flag: 'proxy-errors', reading: 'switch', key: 'proxyErrors', help: 'refuse requests that break the document instead of forwarding them' },
  { flag: 'record', value: 'DIR', reading: 'text', key: 'record', help: "with --proxy: write the real API's answers into DIR as fixtures\n(replay them offline with --fixtures DIR)" },
  { flag: 'record-redact', value: 'F,…', reading: 'commas', key: 'recordRedact', help: 'with --record: leave these request body fields (any depth) out of\nthe recorded match, e.g. password' },
  { flag: 'drain-ms', value: 'MS', reading: 'whole', key: 'drainMs', help: 'at shutdown, keep serving this long after GET /__admin/ready\nturned 503, so a load balancer stops sending first (default 0)' },
  { flag: 'strict', reading: 'switch', key: 'strict', help: 'refuse to start on a document with warnings (for spec authors in CI)' },
  { flag: 'no-watch', reading: 'off', key: 'watch', help: 'do not reload the spec and fixtures when they change' },
  { flag: 'no-cors', reading: 'off', key: 'cors', help: 'do not answer CORS preflights' },
  { flag: 'log-format', value: 'F', reading: 'text', key: 'logFormat', help: 'the log as text (default) or json: every line on stdout and stderr\none JSON object' },
  { flag: 'quiet', reading: 'switch', key: null, help: 'no per-request log lines, and no coverage table at shutdown\nunless --coverage-out is given' },
  { flag: 'compat', value: 'prism', reading: 'text', key: 'compat', help: 'answer as Prism does where the two differ (docs/compared-with-prism.md)' },
  { flag: 'dynamic', short: 'd', reading: 'switch', key: 'dynamic', help: 'generate every answer from its schema, as Prefer: dynamic=true does' },
  { flag: 'errors', reading: 'switch', key: 'errors', help: 'an answer that breaks its own schema is a 500 saying why' },
  { flag: 'help', short: 'h', reading: 'switch', key: null, help: 'this text' },
  { flag: 'version', short: 'v', reading: 'switch', key: null, help: 'the version' },
] as const satisfies readonly CommandLineOption[];

/**
 * Checked by the compiler: every StubOptions key has a flag, but for what the CLI decides itself
 * (where log lines and warnings go: --quiet, --log-format). A new option without its row names
 * itself here as a type error.
 */
type WithoutFlag = Exclude<keyof StubOptions, (typeof COMMAND_LINE_OPTIONS)[number]['key'] | 'log' | 'warn'>;
export const EVERY_OPTION_HAS_A_FLAG: [WithoutFlag] extends [never] ? true : WithoutFlag = true;

/** The table as node:util's parseArgs takes it. */
export function parseArgsOptions(): Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> {
  return Object.fromEntries(COMMAND_LINE_OPTIONS.map((option: CommandLineOption) => [option.flag, {
    type: option.reading === 'switch' || option.reading === 'off' ? 'boolean' : 'string',
    ...(option.reading === 'texts' || option.reading === 'list' || option.reading === 'pairs' ? { multiple: true } : {}),
    ...(option.short ? { short: option.short } : {}),
  }]));
}

/** The options part of --help: each flag (its short form first) in a column, its lines beside it. */
export function optionsHelp(): string {
  return COMMAND_LINE_OPTIONS.map((option: CommandLineOption) => {
    const label = `${option.short ? `-${option.short}, ` : ''}--${option.flag}${option.value ? ` ${option.value}` : ''}`;
    const [first, ...rest] = option.help.split('\n');
    return [`  ${label.padEnd(22)}${first}`, ...rest.map((line) => `${' '.repeat(24)}${line}`)].join('\n');
  }).join('\n');
}
