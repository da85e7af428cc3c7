// What the pipeline reads (EngineState), made the same way by every host: the server's loading
// (load-state.ts, at start and on each reload) and the fetch handler's (fetch/load-values.ts).
// Each host reads its document and fixtures its own way (files, or values); from there on,
// what the engine is given comes from here, so an option one host honours the other does too.
import type { ResolvedEngineOptions } from '../config/engine-options.js';
import type { LoadedDocument } from '../openapi/open-document.js';
import type { CompiledSpec } from '../openapi/compiled-model.js';
import type { Resources } from '../openapi/compile-resources.js';
import type { LoadedFixtures } from '../scenarios/load-fixtures.js';
import type { EngineState } from '../engine/pipeline.js';
import { Sessions } from '../engine/sessions.js';

export function engineState(spec: LoadedDocument, compiled: CompiledSpec, fixtures: LoadedFixtures, resources: Resources | null, options: ResolvedEngineOptions): EngineState {
  return {
    compiled,
    document: spec.document as Record<string, unknown>,
    scenarios: fixtures.scenarios,
    sequences: fixtures.sequences,
    triggers: fixtures.triggers,
    fixtureWarnings: [...(spec.overlayWarnings ?? []), ...fixtures.warnings],
    sticky: null,
    defaultDelayMs: options.delayMs,
    defaultDelaySpread: options.delaySpread,
    stream: { intervalMs: options.streamIntervalMs, maxEvents: options.streamMaxEvents },
    script: { seed: options.seed ?? 0, chaos: options.chaos },
    sessions: new Sessions(),
    resources,
  };
}
