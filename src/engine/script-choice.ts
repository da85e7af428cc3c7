// Stage 4's (select) scripted choices, for a request that asked for nothing by name: an answer added from a
// test, the operation's sequence, a fixture whose `match` it satisfies, a scenario chosen by chance,
// then --chaos. Each may be limited by `times`. What it remembers (sequence positions, counts, the
// index of each chance draw) is the session's, so parallel tests do not move each other's.
import type { CompiledOperation } from '../openapi/compiled-model.js';
import { isSuccessStatus } from '../openapi/success-rule.js';
import type { Chaos } from '../config/script-options.js';
import { cheapRandomizer, fnv1a } from '../generate/seeded-random.js';
import { drawDelay, type DelaySpread } from '../common/delay-spread.js';
import { matchScenario, satisfies, type MatchInput } from './match-scenario.js';
import { DEFAULT_STEP, type Scenario, type Sequence } from './scenario.js';
import { useKey, type SessionPlay } from './sessions.js';


/** What the seeded choices draw from. */
export interface ScriptSettings {
  seed: number;
  chaos: Chaos | null;
}

export interface Scripted {
  /** The scenario to answer with; null for a sequence's `default` step (the stub's own answer). */
  scenario: Scenario | null;
  /** Where it stands, journaled after its name: `2 of 3`. */
  step: string | null;
}

export function scriptedChoice(
  operation: CompiledOperation,
  fixtures: ReadonlyMap<string, Scenario> | undefined,
  sequence: Sequence | undefined,
  play: SessionPlay,
  input: MatchInput,
  settings: ScriptSettings,
): Scripted | null {
  const added = play.added.get(operation.key);
  const mayDraw = settings.chaos !== null || added !== undefined || hasChance(fixtures);
  // One draw index per request that may draw: the same seed and request order draw the same.
  const draw = mayDraw ? nextDraw(play, operation.key) : 0;
  // One draw per request, each chance scenario taking its share of [0, 1) in turn, so two of 0.5
  // share the requests half and half (independent draws would give the second a quarter).
  const roll = mayDraw ? unit(settings.seed, play.name, operation.key, draw, 'chance') : 0;
  let taken = 0;
  const passes = (scenario: Scenario) => {
    if (exhausted(play, operation.key, scenario)) return false;
    if (scenario.chance === null) return true;
    const hit = roll >= taken && roll < taken + scenario.chance;
    taken += scenario.chance;
    return hit;
  };
  if (added) {
    const chosen = added.find((scenario) => (scenario.match === null || satisfies(scenario.match, input)) && passes(scenario));
    if (chosen) return counted(play, operation.key, chosen);
  }
  if (sequence) {
    const stepped = sequenceStep(play, operation.key, sequence, fixtures);
    if (stepped) return stepped;
  }
  if (fixtures) {
    const matched = matchScenario(fixtures, input, passes);
    if (matched) return counted(play, operation.key, matched);
    for (const scenario of fixtures.values()) {
      if (scenario.match === null && scenario.chance !== null && passes(scenario)) return counted(play, operation.key, scenario);
    }
  }
  if (settings.chaos && unit(settings.seed, play.name, operation.key, draw, 'chaos') < settings.chaos.share) {
    return chaosAnswer(operation, settings.chaos, unit(settings.seed, play.name, operation.key, draw, 'which'));
  }
  return null;
}

function hasChance(fixtures: ReadonlyMap<string, Scenario> | undefined): boolean {
  if (!fixtures) return false;
  for (const scenario of fixtures.values()) if (scenario.chance !== null) return true;
  return false;
}

function nextDraw(play: SessionPlay, key: string): number {
  const draw = play.draws.get(key) ?? 0;
  play.draws.set(key, draw + 1);
  return draw;
}

/** A uniform number in [0, 1), the same for the same seed, session, operation, draw and purpose. */
function unit(seed: number, session: string, key: string, draw: number, purpose: string): number {
  const random = cheapRandomizer();
  random.seed(fnv1a(`${seed}\u0000${session}\u0000${key}\u0000${draw}\u0000${purpose}`));
  return random.next();
}

function exhausted(play: SessionPlay, key: string, scenario: Scenario): boolean {
  return scenario.times !== null && (play.uses.get(useKey(key, scenario.name)) ?? 0) >= scenario.times;
}

/** Counts the answer where the scenario is limited, and says which of its answers this is. */
function counted(play: SessionPlay, key: string, scenario: Scenario, step: string | null = null): Scripted {
  if (scenario.times === null) return { scenario, step };
  const used = (play.uses.get(useKey(key, scenario.name)) ?? 0) + 1;
  play.uses.set(useKey(key, scenario.name), used);
  return { scenario, step: step ?? `${used} of ${scenario.times}` };
}


/**
 * The sequence's next step. A step whose scenario has used up its `times` is passed over to the
 * next; once the steps have run out, `after` says what answers: the last step, the first again, or
 * the stub's own answer (null here).
 */
function sequenceStep(play: SessionPlay, key: string, sequence: Sequence, fixtures: ReadonlyMap<string, Scenario> | undefined): Scripted | null {
  const { steps, after } = sequence;
  const position = play.positions.get(key) ?? 0;
  play.positions.set(key, position + 1);
  if (position >= steps.length && after === 'default') return null;
  const index = position < steps.length ? position : after === 'repeat' ? position % steps.length : steps.length - 1;
  for (let tried = 0; tried < steps.length; tried++) {
    const at = after === 'repeat' ? (index + tried) % steps.length : index + tried;
    if (at >= steps.length) break;
    const step = `${at + 1} of ${steps.length}`;
    if (steps[at] === DEFAULT_STEP) return { scenario: null, step };
    const scenario = fixtures?.get(steps[at]);
    if (scenario && !exhausted(play, key, scenario)) return counted(play, key, scenario, step);
  }
  return null;
}

/** --chaos: one of the operation's documented 4xx/5xx answers, or a fault, picked by `which`. */
function chaosAnswer(operation: CompiledOperation, chaos: Chaos, which: number): Scripted | null {
  const errors = [...operation.responses.values()].filter((plan) => plan.status >= 400 && plan.key !== 'default');
  const success = operation.success;
  const faults = success && isSuccessStatus(success.status) ? chaos.faults : [];
  const total = errors.length + faults.length;
  if (total === 0) return null;
  const index = Math.min(total - 1, Math.floor(which * total));
  const plan = index < errors.length ? errors[index] : success!;
  const fault = index < errors.length ? null : faults[index - errors.length];
  const scenario: Scenario = {
    name: 'chaos', status: plan.status, headers: {}, body: undefined, delayMs: null, delaySpread: null, fault, webhooks: [], file: '--chaos',
    match: null, times: null, chance: null, render: null, ownBody: true,
  };
  return { scenario, step: fault ?? String(plan.status) };
}

/** The operation's scenarios with the session's added ones, which a name (X-Mock-Scenario) finds first. */
export function withAdded(added: readonly Scenario[], fixtures: ReadonlyMap<string, Scenario> | undefined): ReadonlyMap<string, Scenario> {
  return new Map([...added.map((scenario) => [scenario.name, scenario] as const), ...(fixtures ?? [])]);
}

/** A wait drawn from a spread, the same for the same seed and draw. */
export function seededDelay(spread: DelaySpread, seed: number, purpose: string, draw: number): number {
  const random = cheapRandomizer();
  random.seed(fnv1a(`${seed}\u0000delay\u0000${purpose}\u0000${draw}`));
  return drawDelay(spread, random.next(), random.next());
}
