#!/usr/bin/env node
// The command line: flags and environment fill in StubOptions, then the default server starts.
// Every failure to start is one line naming the problem and a non-zero exit, never a stack trace.
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError } from './config/config-error.js';
import type { StubOptions } from './config/options.js';
import { fixtureSchemaText } from './stub/fixture-schema-file.js';
import { HELP } from './cli-help.js';
import { COMMAND_LINE_OPTIONS, parseArgsOptions, type CommandLineOption } from './config/option-table.js';
import { batchedSink } from './record/request-log.js';
import { formatCoverage, type CoverageReport } from './record/coverage.js';
import { formatDrift, type DriftReport } from './record/drift.js';
import { startStub, writeCoverage } from './http/server.js';
import { runWorkers } from './http/workers.js';
import { startBanner } from './http/start-banner.js';
import { armExitWatchdog } from './http/exit-watchdog.js';
import { nearestName } from './common/nearest-name.js';
import { parseDelayText } from './common/delay-spread.js';
import { asJsonLines } from './record/json-lines.js';
import { prismArguments } from './config/prism-command-line.js';
import { flagsNpmTook, npmTookFlagsProblem } from './config/npm-took-flags.js';

function exitWithError(message: string): never {
  process.stderr.write(`plant-store-stub: ${message}\n`);
  process.exit(2);
}

const logSink = batchedSink((text) => process.stdout.write(text));

/** Every flag the command line takes, as node:util's parseArgs reads them (config/option-table.ts). */
const OPTIONS = parseArgsOptions();

/** Whether `--flag` is one of the stub's flags that takes a value. */
function takesValue(flag: string): boolean {
  const option = OPTIONS[flag.replace(/^--/, '')];
  return option?.type === 'string';
}

/**
 * parseArgs's complaint as one line; an unknown flag near a real one names it
 * (`Unknown option '--sepc'; did you mean --spec?`).
 */
function argumentProblem(error: Error & { code?: string }): string {
  const unknown = error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /^Unknown option '(--?[^']+)'/.exec(error.message)?.[1] : undefined;
  const near = unknown?.startsWith('--') ? nearestName(unknown, Object.keys(OPTIONS).map((name) => `--${name}`)) : undefined;
  if (near) return `Unknown option '${unknown}'; did you mean ${near}?`;
  // parseArgs explains over several lines (e.g. how to pass `--seed=-1`); keep it one line.
  return `${error.message.split('\n').join(' ')} (see --help)`;
}

function parseOptions(argv: string[]): { options: StubOptions; workers: number } {
  let values;
  try {
    ({ values } = parseArgs({ args: argv[0] === 'mock' ? prismArguments(argv.slice(1), takesValue) : argv, strict: true, allowPositionals: false, options: OPTIONS }));
  } catch (error) {
    exitWithError(argumentProblem(error as Error & { code?: string }));
  }
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  if (values.version) {
    process.stdout.write(`${packageVersion()}\n`);
    process.exit(0);
  }
  // An exported but empty variable (`HOST=` in a compose file) means unset, not an empty value.
  const env = Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== ''));
  // STUB_TOKENS is read as given, even empty: a token list that was set but holds no token would
  // otherwise silently accept every token.
  const listed = process.env.STUB_TOKENS;
  const given = values.token as string[] | undefined;
  const tokens = given ?? (listed !== undefined ? listed.split(',').map((t) => t.trim()).filter(Boolean) : undefined);
  if (listed !== undefined && !given && tokens?.length === 0) exitWithError('STUB_TOKENS: holds no token; give comma-separated tokens or unset it');
  const options: StubOptions = {};
  for (const option of COMMAND_LINE_OPTIONS as readonly CommandLineOption[]) {
    const value = read(option, (values as Record<string, unknown>)[option.flag], option.env === undefined ? undefined : env[option.env]);
    if (option.key !== null && value !== undefined) (options as Record<string, unknown>)[option.key] = value;
  }
  options.tokens = tokens;
  options.log = values.quiet ? false : logSink;
  // Quiet is no request lines; what loading says still prints, on stderr.
  options.warn = values.quiet ? (line) => void process.stderr.write(`${line}\n`) : undefined;
  const workers = integer('--workers', values.workers as string | undefined) ?? 1;
  if (workers < 1 || workers > 64) exitWithError(`--workers: must be from 1 to 64, got ${workers}`);
  // Each worker would write its own version of the same fixture files over the others'.
  if (workers > 1 && options.record !== undefined) exitWithError('--record: records from one process; leave out --workers (or use --workers 1)');
  return { options, workers };
}

/**
 * A flag's text as its option's value (see Reading), or the environment variable's when the flag
 * was not given; undefined when neither was. A value that cannot be read stops the start, naming
 * the flag.
 */
function read(option: CommandLineOption, given: unknown, fromEnv: string | undefined): unknown {
  const flag = given === undefined && fromEnv !== undefined ? option.env! : `--${option.flag}`;
  const text = (given ?? fromEnv) as string | string[] | boolean | undefined;
  if (option.reading === 'off') return !text;
  if (text === undefined) return undefined;
  switch (option.reading) {
    case 'texts':
      // One --spec is one document; several are served on one port (docs/several-documents.md).
      return Array.isArray(text) && text.length === 1 ? text[0] : text;
    case 'whole':
      return integer(flag, text as string);
    case 'share':
      return shareOf(flag, text as string);
    case 'delay':
      return delayOf(text as string);
    case 'commas':
      return (text as string).split(',').map((item) => item.trim()).filter(Boolean);
    case 'pairs':
      return webhookTargets(text as string[]);
    default:
      return text;
  }
}

/** `--webhook newPlant=http://…` (repeatable) -> { newPlant: 'http://…' }; the name ends at the first `=`. */
function webhookTargets(flags: string[]): Record<string, string> {
  const targets: Record<string, string> = {};
  for (const flag of flags) {
    const at = flag.indexOf('=');
    if (at <= 0) exitWithError(`--webhook: expected NAME=URL, got "${flag}"`);
    targets[flag.slice(0, at)] = flag.slice(at + 1);
  }
  return targets;
}

/** The version in the package's own package.json (dist/cli.js -> the package root). */
function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

function integer(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim())) exitWithError(`${flag}: must be a whole number, got "${value}"`);
  return Number(value);
}

/** `--delay`: milliseconds, or a spread (`100-800`, `median=200,p99=2000`). */
function delayOf(value: string | undefined): StubOptions['delayMs'] {
  if (value === undefined) return undefined;
  const delay = parseDelayText(value);
  if (typeof delay === 'string') exitWithError(`--delay: ${delay}`);
  return delay;
}

/** A share from 0 to 1 (`0.05`). */
function shareOf(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^(0|1)?(\.\d+)?$/.test(value.trim()) || value.trim() === '' || Number(value) > 1) exitWithError(`${flag}: must be a share from 0 to 1 (0.05 is 5% of requests), got "${value}"`);
  return Number(value);
}

/** A start that takes longer than this says so. */
const SLOW_START_MS = 1_000;

/** From a stop signal to the end of the process, at most. */
const SHUTDOWN_GRACE_MS = 5_000;

/**
 * --log-format json: from the first line on (a refused flag included), whatever this process
 * writes goes out as JSON lines (json-lines.ts). The streams themselves are wrapped, because
 * lines come from every layer (warnings, reloads, the state store, the workers' primary) and a
 * single line of text would break a log collector reading the rest.
 */
function writeJsonLines(argv: string[]): void {
  const at = argv.findIndex((arg) => arg === '--log-format' || arg.startsWith('--log-format='));
  const format = at === -1 ? undefined : argv[at].includes('=') ? argv[at].slice('--log-format='.length) : argv[at + 1];
  if (format !== 'json') return;
  for (const [stream, level] of [[process.stdout, 'info'], [process.stderr, 'error']] as const) {
    const write = stream.write.bind(stream) as (chunk: string, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => write(asJsonLines(String(chunk), level), ...rest)) as typeof stream.write;
  }
}

async function main(): Promise<void> {
  // Output piped into a reader that has gone (`… | head`) is no reason to stop serving, nor to
  // die with a stack trace at shutdown when the last lines are written.
  process.stdout.on('error', () => {});
  writeJsonLines(process.argv.slice(2));
  if (process.argv[2] === 'fixture-schema') return void process.stdout.write(await fixtureSchemaText(process.argv.slice(3)));
  const took = flagsNpmTook(process.env, Object.keys(OPTIONS), takesValue);
  if (took.length > 0) exitWithError(npmTookFlagsProblem(took, process.env.npm_lifecycle_event!));
  const { options, workers } = parseOptions(process.argv.slice(2));
  // Said once, by the process the user started (with --workers, not again by each worker).
  if (options.seedItems && options.stateful === undefined && options.stateFile === undefined && options.log !== false && cluster.isPrimary) {
    process.stdout.write('note: --seed-items fills stateful mode\'s store, so stateful mode is on (as with --stateful)\n');
  }
  if (workers > 1) return runWorkers(workers, options, exitWithError, (report, drift) => reportCoverage(options, report, true, drift));
  // A big document can take seconds before the first line (DigitalOcean's, bundled from about
  // 2,900 files: 5 s and more); a silent terminal looks hung, so say what it is doing. Progress,
  // not a problem: stdout, and not with --quiet (stderr stays for what stops the start).
  const slow = setTimeout(() => {
    if (options.log) process.stdout.write(`reading and compiling ${[options.spec ?? 'the document'].flat().join(', ')}…\n`);
  }, SLOW_START_MS);
  const running = await startStub(options).finally(() => clearTimeout(slow));
  // Handlers first: a supervisor may signal as soon as it reads the "listening" line below.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const drainMs = options.drainMs ?? 0;
    if (drainMs > 0) process.stdout.write(`${signal}: not ready; serving for ${drainMs} ms (--drain-ms) before closing…\n`);
    process.stdout.write(`${signal}: finishing in-flight requests…\n`);
    // In-flight answers get all but the last half second of the grace, the coverage report that
    // half second; whatever happens, the process is gone when it is over (see exit-watchdog.ts).
    // Closing starts first: the port stops accepting (after the drain) before the watchdog thread
    // is even started.
    const closing = running.close(SHUTDOWN_GRACE_MS - 500);
    armExitWatchdog(drainMs + SHUTDOWN_GRACE_MS, signal);
    await closing;
    logSink.flush();
    await reportCoverage(options, running.coverage(), false, running.drift());
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // What loading said (notes, warnings) comes first, every time, not whenever the log's batch is due.
  logSink.flush();
  process.stdout.write(startBanner(running));
}

/**
 * The coverage at shutdown: the table (what a CI job shows; --quiet silences it unless a coverage
 * file was asked for), and --coverage-out when `write` (a single process has written it already
 * while closing; with --workers the primary writes the whole server's here); after proxying, the
 * drift table (silenced by --quiet too).
 */
async function reportCoverage(options: StubOptions, report: CoverageReport, write: boolean, drift: DriftReport): Promise<void> {
  if (write && options.coverageOut) await writeCoverage(options.coverageOut, report);
  if (options.log || options.coverageOut) process.stdout.write(formatCoverage(report) + '\n');
  if (options.coverageOut) process.stdout.write(`coverage written to ${options.coverageOut}\n`);
  // After proxying, where the real API and the document disagreed (GET /__admin/drift as a table).
  if (options.proxy && options.log) process.stdout.write(formatDrift(drift, options.proxy) + '\n');
}

/** Option names as `resolveOptions` reports them -> the flags a CLI user typed. */
const FLAGS: Record<string, string> = {
  overlays: '--overlay', port: '--port', host: '--host', tokens: '--token', adminToken: '--admin-token', seed: '--seed',
  maxBodyBytes: '--max-body', maxStateBytes: '--max-state', delayMs: '--delay', chaos: '--chaos', chaosFaults: '--chaos-faults', streamIntervalMs: '--stream-interval', streamMaxEvents: '--stream-max-events', journalLimit: '--journal-limit', logFormat: '--log-format',
  coverageOut: '--coverage-out', stateFile: '--state-file', seedItems: '--seed-items', stateStore: '--state-store', webhooks: '--webhook', callbackHosts: '--callback-hosts',
  proxy: '--proxy', proxyTimeoutMs: '--proxy-timeout', record: '--record', recordRedact: '--record-redact', drainMs: '--drain-ms', compat: '--compat',
};

main().catch((error: unknown) => {
  if (error instanceof ConfigError) exitWithError(FLAGS[error.source] ? `${FLAGS[error.source]}: ${error.problem}` : error.message);
  exitWithError(`could not start: ${(error as Error).message ?? String(error)}`);
});
