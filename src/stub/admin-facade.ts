// What the admin API (/__admin) reads and changes, in the words of its endpoints: nothing outside
// the stub reads the served state itself. Changes made "everywhere" reach every process of a
// whole server (--workers, --state-store); the rest answer for this process.
import { ConfigError } from '../config/config-error.js';
import { fixtureSchema } from '../scenarios/fixture-schema.js';
import { tryRequest, type TryRequest } from './try-request.js';
import { DEFAULT_SESSION } from '../engine/sessions.js';
import { ADDED_SOURCES, addedHere, scenarioListing, type ScenarioListing } from './scenario-listing.js';
import type { DocumentWarning } from '../openapi/document-warnings.js';
import { Coverage, type CoverageReport } from '../record/coverage.js';
import type { DriftReport } from '../record/drift.js';
import { asksPage, type JournalFilter } from '../record/journal.js';
import type { DeliveryOutcome, Outbound } from '../outbound/outbound.js';
import { requestFor } from '../engine/plan-deliveries.js';
import { parseExactJson, stringifyExact } from '../common/exact-json.js';
import type { ServedVersion } from './served-version.js';
import { metricsText, type Metrics } from '../record/metrics.js';
import type { Recorder } from './recorder.js';
import type { JournalFollowers, JournalWatcher } from './journal-followers.js';
import type { StateAccess } from './state-access.js';
import { SMALLEST_STATE_DOCUMENT, StoredItems, type ItemsPage } from './stored-items.js';
import type { Resource } from '../openapi/compile-resources.js';
import { resourceNames, resourcesReport } from './resources-report.js';
import type { AdminChange, WholeServer } from './whole-server.js';

export type { ScenarioListing } from './scenario-listing.js';

/** The parts of the stub the admin API works through. */
export interface AdminParts {
  version: ServedVersion;
  recorder: Recorder;
  followers: JournalFollowers;
  outbound: Outbound;
  metrics: Metrics;
  /** Stateful mode's store; null when stateful mode is off. */
  state: () => StateAccess | null;
  /** This process's --proxy drift report. */
  drift: () => DriftReport;
  /** What makes several processes one server; null in a single process. */
  whole: () => WholeServer | null;
  /** True once shutdown has begun. */
  shuttingDown: () => boolean;
  /** A bearer token the stub accepts (the first --token), for the page's "Try it"; undefined when any is. */
  token?: string;
}

/** GET /__admin/health: `reason` says in plain words why it is not ok. */
export interface Health {
  status: 'ok' | 'unavailable';
  spec: string;
  operations: number;
  reason?: string;
}

export class StubAdmin {
  constructor(private readonly parts: AdminParts) {}

  /** GET /__admin/health: unavailable while the shared state store cannot be reached. */
  async health(): Promise<Health> {
    const { compiled } = this.parts.version.current;
    const reason = (await this.parts.whole()?.problem?.()) ?? null;
    const health: Health = { status: reason === null ? 'ok' : 'unavailable', spec: compiled.title, operations: compiled.operations.length };
    if (reason !== null) health.reason = reason;
    return health;
  }

  /**
   * GET /__admin/ready: whether a load balancer should send requests here. Not once shutdown has
   * begun; a store outage does not count, since every instance shares the store and the stub keeps
   * answering what does not need it (health reports the outage).
   */
  ready(): { status: 'ready' } | { status: 'shutting down'; reason: string } {
    return this.parts.shuttingDown() ? { status: 'shutting down', reason: 'the stub is shutting down; send new requests to another instance' } : { status: 'ready' };
  }

  /** GET /__admin/metrics in the Prometheus text format: with --workers, the whole server's; else this process's. */
  async metrics(): Promise<string> {
    return (await this.parts.whole()?.metrics?.()) ?? metricsText([await this.parts.recorder.settled(() => this.parts.metrics.json())]);
  }

  /** GET /__admin/warnings: the document's flaws, then what loading the fixtures warned of. */
  warnings(): readonly DocumentWarning[] {
    const { compiled, fixtureWarnings = [] } = this.parts.version.current;
    return fixtureWarnings.length === 0 ? compiled.warnings : [...compiled.warnings, ...fixtureWarnings];
  }

  /** GET /__admin/scenarios: one session's view (the default session's unless named). */
  scenarios(session = DEFAULT_SESSION): ScenarioListing {
    return scenarioListing(this.parts.version, session);
  }

  scenarioNames(session = DEFAULT_SESSION): string[] {
    return this.parts.version.scenarioNames(session);
  }

  /**
   * POST /__admin/scenarios: adds a scenario in every process, checked here first; its name and
   * session, or what is wrong with it (nothing added anywhere).
   */
  async addScenario(definition: unknown): Promise<{ name: string; session: string } | { violations: string[] }> {
    let added;
    try {
      added = this.parts.version.addScenario(definition, ADDED_SOURCES[0]);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      return { violations: [...error.problems] };
    }
    const whole = this.parts.whole();
    if (whole) await whole.changeEverywhere({ kind: 'use', scenario: { ...(definition as Record<string, unknown>), name: added.name, session: added.session } });
    return added;
  }

  /** Follows the journal live (GET /__admin/events). */
  watchJournal(watcher: JournalWatcher): () => void {
    return this.parts.followers.watch(watcher);
  }

  /** The whole server's journal as GET /__admin/requests answers it (JSON text, numbers exact). */
  async wholeJournal(filter: JournalFilter): Promise<string> {
    const whole = this.parts.whole();
    if (whole) return whole.journal(filter);
    const { requests, total } = this.parts.recorder.requestsPage(filter);
    return stringifyExact(asksPage(filter) ? { requests, total } : { requests }, true);
  }

  /** --proxy's drift report (GET /__admin/drift): every worker's added up with --workers; with --state-store, this instance's. */
  async wholeDrift(): Promise<DriftReport> {
    return (await this.parts.whole()?.drift?.()) ?? this.drift();
  }

  /** This process's drift report. */
  drift(): DriftReport {
    return this.parts.drift();
  }

  /** The whole server's coverage: every worker's hits added up with --workers. */
  async wholeCoverage(): Promise<CoverageReport> {
    const whole = this.parts.whole();
    if (!whole) return this.parts.recorder.coverageReport();
    const sum = new Coverage();
    sum.add(await whole.coverage());
    const { compiled, scenarios } = this.parts.version.current;
    return sum.report(compiled.operations, scenarios);
  }

  /** Makes an admin change in this process; false when it could not be made (an unknown scenario, a broken reload). */
  async changeHere(change: AdminChange): Promise<boolean> {
    const { version, recorder, outbound } = this.parts;
    switch (change.kind) {
      case 'sticky':
        if (change.name === null) version.clearScenario(change.session);
        return change.name === null || version.useScenario(change.name, change.session);
      case 'reset':
        recorder.reset();
        return true;
      case 'scripts':
        version.resetScripts(change.session);
        this.parts.state()?.forgetSessions(change.session);
        return true;
      case 'use':
        return addedHere(version, change.scenario);
      case 'unuse':
        version.removeScenario(change.name, change.session);
        return true;
      case 'reload':
        return version.reload();
      case 'webhook':
        outbound.setTarget(change.name, change.url);
        return true;
    }
  }

  /** Makes an admin change in the whole server: every worker with --workers, else this process. */
  async changeEverywhere(change: AdminChange): Promise<boolean> {
    const whole = this.parts.whole();
    return whole ? whole.changeEverywhere(change) : this.changeHere(change);
  }

  /** GET /__admin/try?operation=KEY: how to call the operation (the page's "Try it"); null when there is no such operation. */
  tryRequest(key: string): TryRequest | null {
    const { compiled, document } = this.parts.version.current;
    const operation = compiled.byKey.get(key) ?? compiled.operations.find((op) => op.operationId === key);
    return operation && document ? tryRequest(document, operation, this.parts.token) : null;
  }

  /** GET /__admin/fixture-schema: a JSON Schema of fixture files for the document served. */
  fixtureSchema(): object {
    const { compiled, document } = this.parts.version.current;
    return fixtureSchema(compiled, document ?? {});
  }

  /** Puts stateful mode's store back to its seeded start (POST /__admin/reset?state=true); nothing when it is off. */
  async resetState(): Promise<void> {
    await this.parts.state()?.resetAll();
  }

  /** Stateful mode's shared store as the admin API reads and changes it; null when it is off. */
  private items = (state = this.parts.state()): StoredItems | null => state && new StoredItems(state);

  /** True in stateful mode. */
  get stateful(): boolean {
    return this.parts.state() !== null;
  }

  /** The stored resources as JSON (GET /__admin/state); null when stateful mode is off. */
  async stateJson(): Promise<string | null> {
    return this.items()?.json() ?? null;
  }

  /** What stateful mode made of the document (GET /__admin/resources); null when it is off. */
  resourcesReport(): object | null {
    const { resources } = this.parts.version.current;
    return resources ? resourcesReport(resources) : null;
  }

  /** The largest state document PUT /__admin/state reads: one holding as many items as --max-state keeps. */
  stateDocumentLimit(): number {
    return this.items()?.documentLimit() ?? SMALLEST_STATE_DOCUMENT;
  }

  /** Replaces the stored resources with a state document; its violations when it is not one. */
  async replaceState(text: string): Promise<string[]> {
    return this.items()!.replace(text);
  }

  async clearState(): Promise<void> {
    await this.items()?.clear();
  }

  /** The resource GET /__admin/resources names `name`; null when there is none (or stateful mode is off). */
  resourceNamed(name: string): Resource | null {
    const { resources } = this.parts.version.current;
    return resources ? resourceNames(resources).get(name) ?? null : null;
  }

  /** The admin names of the resources, for a refusal that lists them. */
  resourceNameList(): string[] {
    const { resources } = this.parts.version.current;
    return resources ? [...resourceNames(resources).keys()] : [];
  }

  /** One resource's stored items, newest first (GET /__admin/resources/{name}/items). */
  async itemsPage(resource: Resource, offset: number, limit: number): Promise<ItemsPage> {
    return this.items()!.page(resource, offset, limit);
  }

  /** Stores an item as sent, checked against the document; its violations when it does not fit. */
  async putItem(resource: Resource, id: string, text: string): Promise<string[]> {
    return this.items()!.putItem(resource, id, text);
  }

  async deleteItem(resource: Resource, id: string): Promise<boolean> {
    return this.items()!.deleteItem(resource, id);
  }

  async resetResource(resource: Resource): Promise<void> {
    await this.items()!.reset(resource);
  }

  hasWebhook(name: string): boolean {
    return this.parts.version.current.compiled.webhooks.has(name);
  }

  webhookNames(): string[] {
    return [...this.parts.version.current.compiled.webhooks.keys()];
  }

  /** Where the webhook is sent; null when it has no target. */
  webhookTarget(name: string): string | null {
    return this.parts.outbound.targetOf(name);
  }

  /** The document's webhooks with their targets, and the last deliveries' outcomes (GET /__admin/webhooks). */
  webhooks(): { webhooks: Array<{ name: string; target: string | null }>; deliveries: DeliveryOutcome[] } {
    return { webhooks: this.webhookNames().map((name) => ({ name, target: this.webhookTarget(name) })), deliveries: this.parts.outbound.recent() };
  }

  /**
   * Sends a webhook now (POST /__admin/webhooks/NAME/fire). `text`, when not empty, is the payload
   * and must fit the webhook's schema: its violations are returned and nothing is sent. Without
   * it, the payload is the documented example, else generated data.
   */
  fireWebhook(name: string, text: string): string[] {
    const plan = this.parts.version.current.compiled.webhooks.get(name)!;
    let body = null;
    if (text.trim() !== '') {
      try {
        body = parseExactJson(text);
      } catch (error) {
        return [`/: ${(error as Error).message}`];
      }
      const violations = plan.validate?.(body.value, body.rawNumbers) ?? [];
      if (violations.length > 0) return violations;
    }
    this.parts.outbound.send([{ kind: 'webhook', name, url: null, ...requestFor(plan, null, body) }]);
    return [];
  }
}
