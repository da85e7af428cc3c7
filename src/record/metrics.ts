// The stub's metrics for Prometheus (GET /__admin/metrics): requests by operation, status and where
// the answer came from, their latency, refusals by kind, deliveries of webhooks and callbacks,
// reloads, state-store errors, and the sizes read when scraped (journal, delivery queue, stored
// items and bytes). Counted from the recorder's answered event, the deliveries' outcomes and the
// reloads: nothing is added to the pipeline itself.
//
// Counting is a few additions to plain numbers; prom-client turns them into the text format only
// when scraped. Why not prom-client's Counter and Histogram on the hot path: importing prom-client
// takes a share of the start-up the benchmark counts (docs/benchmark.md), and its label hashing
// runs on every observation; a stub that is never
// scraped pays neither. The numbers are handed over in prom-client's own JSON form
// (`getMetricsAsJSON`), which its AggregatorRegistry adds up across --workers and writes as text.
import type { EngineResponse } from '../engine/engine-response.js';
import type { RefusalName } from '../engine/engine-types.js';
import { PREFLIGHT } from '../engine/answer-values.js';

/** What the scrape reads at that moment, rather than counting as it goes. */
export interface MetricSizes {
  journalEntries(): number;
  deliveryQueue(): number;
  /** Each resource with its items and their bytes (the stored JSON text); empty when stateful mode is off. */
  stored(): Promise<Array<{ resource: string; items: number; bytes: number }>>;
}

/** A delivery's end as the metrics count it (outbound/outbound.ts's DeliveryOutcome fits). */
export interface DeliveryEnd {
  kind: 'webhook' | 'callback';
  /** The receiver's status for the last try; null when none answered. */
  status: number | null;
  /** 0 when it was never tried (dropped, refused, no target). */
  attempts: number;
}

/** One series of a metric, as prom-client's `getMetricsAsJSON` writes it. */
interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  /** A histogram's `_bucket`, `_sum` or `_count`. */
  metricName?: string;
}

/** One metric, as prom-client's `getMetricsAsJSON` writes it. */
interface MetricJson {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  /** How --workers' values are combined. */
  aggregator: 'sum' | 'first';
  values: MetricValue[];
}

/** One process's metrics as plain data (sent from a worker to the cluster primary as it is). */
export type MetricsJson = MetricJson[];

/** Seconds; most answers take well under a millisecond, scripted delays up to a minute. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const RELOAD_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Observations of one histogram series: a count per bucket (not cumulative), the sum and the count. */
class Buckets {
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Array<number>(bounds.length).fill(0);
  }

  observe(value: number): void {
    for (let at = 0; at < this.bounds.length; at++) {
      if (value <= this.bounds[at]) {
        this.counts[at]++;
        break;
      }
    }
    this.sum += value;
    this.count++;
  }

  /** The series' values as the text format has them: cumulative `_bucket`s up to `+Inf`, `_sum`, `_count`. */
  values(name: string, labels: Record<string, string>): MetricValue[] {
    let below = 0;
    const buckets = this.bounds.map((le, at) => ({ metricName: `${name}_bucket`, labels: { ...labels, le }, value: (below += this.counts[at]) }));
    return [
      ...buckets,
      { metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: this.count },
      { metricName: `${name}_sum`, labels, value: this.sum },
      { metricName: `${name}_count`, labels, value: this.count },
    ];
  }
}

export class Metrics {
  /** `operation\nstatus\norigin` -> requests. */
  private readonly requests = new Map<string, number>();
  private readonly latency = new Map<string, Buckets>();
  private readonly refusals = new Map<string, number>();
  private readonly deliveries = new Map<string, number>();
  private readonly reloads = new Map<string, number>();
  private readonly reloadTime = new Buckets(RELOAD_BUCKETS);
  private storeErrors = 0;
  /** With several documents on one port: operation key -> the document it is from, a `document` label at scrape time. */
  private readonly documentOf = new Map<string, string>();
  /** The labels of the request counted last and their key (requestsKey). */
  private lastRequests = { operation: '', status: '', origin: '', key: '' };

  constructor(private readonly sizes: MetricSizes) {}

  /** Counts one answered request (the recorder's answered event). */
  answered(response: EngineResponse, durationMs: number): void {
    const operation = response.operation?.key ?? 'none';
    const status = response.fault ? `fault:${response.fault}` : response.abandoned ? 'abandoned' : String(response.status);
    const origin = answeredFrom(response);
    add(this.requests, this.requestsKey(operation, status, origin));
    let latency = this.latency.get(operation);
    if (latency === undefined) this.latency.set(operation, (latency = new Buckets(LATENCY_BUCKETS)));
    latency.observe(durationMs / 1000);
    if (response.operation?.document) this.documentOf.set(operation, response.operation.document);
    if (response.refusal === undefined) return;
    const kind = REFUSAL_KINDS[response.refusal];
    add(this.refusals, kind);
    if (kind === 'state_store_unavailable') this.storeErrors++;
  }

  /**
   * The requests counter's key for these labels. Under load the same few label sets repeat, so the
   * last key is kept and used again: a Map lookup with a key string built per request hashes it
   * anew each time, about ten times the cost of a lookup with a string it has seen (docs/benchmark.md).
   */
  private requestsKey(operation: string, status: string, origin: string): string {
    const last = this.lastRequests;
    if (last.operation !== operation || last.status !== status || last.origin !== origin) {
      this.lastRequests = { operation, status, origin, key: `${operation}\n${status}\n${origin}` };
    }
    return this.lastRequests.key;
  }

  /** The values with a `document` label where their operation is one of several documents'. */
  private withDocument(values: MetricValue[]): MetricValue[] {
    if (this.documentOf.size === 0) return values;
    return values.map((value) => {
      const document = this.documentOf.get(String(value.labels.operation));
      return document === undefined ? value : { ...value, labels: { ...value.labels, document } };
    });
  }

  /** Counts one delivery's end (outbound/outbound.ts). */
  delivered({ kind, status, attempts }: DeliveryEnd): void {
    add(this.deliveries, `${kind}\n${attempts === 0 ? 'not sent' : status !== null && status < 400 ? 'delivered' : 'failed'}`);
  }

  /** Counts one reload, refused (the last good version kept serving) or not. */
  reloaded(ok: boolean, durationMs: number): void {
    add(this.reloads, ok ? 'ok' : 'refused');
    this.reloadTime.observe(durationMs / 1000);
  }

  /** This process's metrics as plain data (what a worker hands the cluster primary). */
  async json(): Promise<MetricsJson> {
    const stored = await this.sizes.stored().catch(() => []);
    const { latency } = this;
    return [
      counter('stub_requests_total', 'Requests answered, by operation (METHOD /path as the document writes it; none when no operation matched; with several documents, also by document), status (or fault:KIND, abandoned) and origin, where the answer came from (scenario, example, echo, generated, state, proxy: the real API, refusal)',
        this.withDocument(rows(this.requests, ['operation', 'status', 'origin']))),
      {
        name: 'stub_request_duration_seconds', help: 'From a request\'s arrival to its answer sent (scripted delays included), by operation', type: 'histogram', aggregator: 'sum',
        values: this.withDocument([...latency].flatMap(([operation, buckets]) => buckets.values('stub_request_duration_seconds', { operation }))),
      },
      counter('stub_refusals_total', 'Requests refused instead of served, by kind', rows(this.refusals, ['kind'])),
      counter('stub_state_store_errors_total', 'Requests the shared state store (Redis) did not answer, each answered 503', [{ labels: {}, value: this.storeErrors }]),
      counter('stub_deliveries_total', 'Webhooks and callbacks, by kind and outcome after retries (delivered, failed, not sent)', rows(this.deliveries, ['kind', 'outcome'])),
      gauge('stub_delivery_queue_depth', 'Webhooks and callbacks waiting or being sent', [{ labels: {}, value: this.sizes.deliveryQueue() }], 'sum'),
      gauge('stub_journal_entries', 'Requests held in the journal (--journal-limit caps each process\'s)', [{ labels: {}, value: this.sizes.journalEntries() }], 'sum'),
      // One store shared by every worker: added up, it would be counted once per worker.
      gauge('stub_stored_items', 'Items stored in stateful mode, by resource', stored.map(({ resource, items }) => ({ labels: { resource }, value: items })), 'first'),
      gauge('stub_stored_bytes', 'Bytes of the items stored in stateful mode (their JSON text), by resource', stored.map(({ resource, bytes }) => ({ labels: { resource }, value: bytes })), 'first'),
      counter('stub_reloads_total', 'Reloads of the document and fixtures, by outcome (refused: the last good version kept serving)', rows(this.reloads, ['outcome'])),
      {
        name: 'stub_reload_duration_seconds', help: 'How long a reload took, whatever its outcome', type: 'histogram', aggregator: 'sum',
        values: this.reloadTime.values('stub_reload_duration_seconds', {}),
      },
    ];
  }
}

/**
 * Metrics as the Prometheus text format: one process's, or every worker's added up (counters and
 * histograms summed; the stored figures, the same in every worker, taken once).
 */
export async function metricsText(parts: MetricsJson[]): Promise<string> {
  const { AggregatorRegistry } = await import('prom-client');
  return AggregatorRegistry.aggregate(parts).metrics();
}

/** The media type of the text format prom-client writes (version 0.0.4). */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

function add(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** A map keyed by label values joined with newlines -> one value per label set. */
function rows(counts: Map<string, number>, names: string[]): MetricValue[] {
  return [...counts].map(([key, value]) => {
    const parts = key.split('\n');
    return { labels: Object.fromEntries(names.map((name, at) => [name, parts[at]])), value };
  });
}

function counter(name: string, help: string, values: MetricValue[]): MetricJson {
  return { name, help, type: 'counter', aggregator: 'sum', values };
}

function gauge(name: string, help: string, values: MetricValue[], aggregator: 'sum' | 'first'): MetricJson {
  return { name, help, type: 'gauge', aggregator, values };
}

/**
 * Where the answer came from, as a few values: the kind of its scenario (not the name of a
 * fixture's scenario or example, which are unbounded), the real API, or a refusal.
 */
function answeredFrom(response: EngineResponse): string {
  if (response.refusal !== undefined) return 'refusal';
  const { scenario } = response;
  // Relayed from the real API (or the client left while it was): no scenario made it.
  if (scenario === null) return response.proxy ? 'proxy' : 'refusal';
  if (scenario === 'echo' || scenario === 'generated' || scenario === 'state' || scenario === PREFLIGHT) return scenario;
  return scenario.startsWith('example:') ? 'example' : 'scenario';
}

/**
 * The kind each refusal is counted as, by the name it carries (refusals.ts), never guessed from its
 * status: a busy store's 503 is not an outage, a full store's 422 not a client's selection. Typed
 * over every name, so a new refusal cannot go uncounted.
 */
const REFUSAL_KINDS: Record<RefusalName, string> = {
  noOperation: 'no_operation',
  methodNotAllowed: 'method_not_allowed',
  badPath: 'invalid_request',
  unauthenticated: 'unauthenticated',
  bodyTooLarge: 'body_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  invalid: 'invalid_request',
  emptyScenarioHeader: 'selection',
  notAStatusCode: 'selection',
  badDelay: 'selection',
  badFault: 'selection',
  unknownScenario: 'selection',
  undocumentedCode: 'selection',
  unknownExample: 'selection',
  noSuccess: 'selection',
  notAcceptable: 'not_acceptable',
  resourceFull: 'state_store_full',
  storeFull: 'state_store_full',
  unnameable: 'invalid_request',
  itemExists: 'item_exists',
  noItem: 'no_item',
  storeUnavailable: 'state_store_unavailable',
  storeBusy: 'state_store_busy',
  tooManyOwed: 'too_many_waiting',
  internalError: 'internal_error',
  brokenAnswer: 'internal_error',
  notText: 'internal_error',
  tooComplex: 'internal_error',
  outsideProxyTarget: 'invalid_request',
  gateway: 'upstream',
};
