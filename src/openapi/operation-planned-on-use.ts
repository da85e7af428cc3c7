// A big document's operations are planned when first used (compile-operations.ts): planning
// GitHub's 1,223 at start was about 0.2 s of its start-up, for operations mostly never called.
import type { CompiledOperation, NamedOperation, OperationPlans } from './compiled-model.js';

/**
 * An operation of a big document: named at start, planned when a request (or the coverage, a
 * fixture, stateful mode) first reads a plan. Getters on a class, so the hot path reads them
 * through one shape as it reads a plain object.
 */
export class OperationPlannedOnUse implements CompiledOperation {
  readonly key: string;
  readonly method: string;
  readonly path: string;
  readonly operationId: string | null;
  readonly document: string | null;
  readonly checkSecurity: CompiledOperation['checkSecurity'];
  readonly generate: CompiledOperation['generate'];
  readonly generationCapped: CompiledOperation['generationCapped'];
  readonly reportUnsatisfiable: CompiledOperation['reportUnsatisfiable'];
  readonly formPost: CompiledOperation['formPost'];
  private planned: OperationPlans | null = null;

  constructor(named: NamedOperation, private readonly plan: () => OperationPlans) {
    ({ key: this.key, method: this.method, path: this.path, operationId: this.operationId, document: this.document, checkSecurity: this.checkSecurity } = named);
    ({ generate: this.generate, generationCapped: this.generationCapped, reportUnsatisfiable: this.reportUnsatisfiable, formPost: this.formPost } = named);
  }

  private get plans(): OperationPlans {
    return (this.planned ??= this.plan());
  }
  get validateParameters() { return this.plans.validateParameters; }
  get body() { return this.plans.body; }
  get responses() { return this.plans.responses; }
  get success() { return this.plans.success; }
  get renderError() { return this.plans.renderError; }
  get invalidStatus() { return this.plans.invalidStatus; }
  get responseHeaderNames() { return this.plans.responseHeaderNames; }
  get callbacks() { return this.plans.callbacks; }
  get cursorPaging() { return this.plans.cursorPaging; }
}
