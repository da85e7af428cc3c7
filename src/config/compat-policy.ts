// Where the stub answers differently from Prism, as data: one policy made once at start from the
// options (`compat`, `dynamic`, `errors`), handed to the few stages that differ, so no stage asks
// "are we Prism?" and a reader finds every difference in this one table. docs/compared-with-prism.md
// says what each field means for a client.
import { ConfigError } from './config-error.js';

export type CompatMode = 'prism';

export interface CompatPolicy {
  /** `stub` (the default) or `prism` (`--compat prism`): for logs and the admin API. */
  readonly name: 'stub' | CompatMode;
  /**
   * Data for a schema without an example: realistic generated data (ours), or Prism's plain
   * sample of the schema (`"string"`, `0`, the first enum, the schema's own examples and defaults).
   */
  readonly staticData: 'realistic' | 'sample';
  /** A request's JSON body is echoed into a success answer whose schema shares its fields (ours); Prism serves the example or sample. */
  readonly echoRequests: boolean;
  /** Every answer generated from the schema alone, as if `Prefer: dynamic=true` were sent (Prism's `-d`); `__dynamic=false` opts out. */
  readonly dynamicByDefault: boolean;
  /** The media type that answers where the client has no preference (no Accept, `*\/*`): the response's JSON one (ours), or its first documented (Prism). */
  readonly preferredMedia: 'json' | 'first';
  /** HEAD answered wherever GET is (ours, RFC 9110), or only where the document lists it (Prism: 405 otherwise). */
  readonly headWithGet: boolean;
  /** A documented example that breaks its schema: served only when named (ours), or like any other and reported (Prism). */
  readonly brokenExamplesServed: boolean;
  /**
   * How a schema violation reads: `/id: is required` (ours), or Ajv's own message with its keyword,
   * `/: must have required property 'id' [required]`, the parts Prism's `validation` items hold.
   */
  readonly wording: 'stub' | 'ajv';
  /**
   * How refusals are answered: ours (the API's error shape, problem+json for the stub's own), or
   * Prism's (the documented response for the status as an answer, else Prism's problem types, and
   * 404 for a requested status or example the operation lacks).
   */
  readonly refusals: 'stub' | 'prism';
  /**
   * Problems found in a request that did not stop it, and in an answer (its body breaking its
   * schema): logged and journaled (ours), or also listed in an `sl-violations` header (Prism).
   */
  readonly violationsHeader: boolean;
  /** An answer that breaks its own schema is refused with a 500 listing why (`--errors`), instead of being sent. */
  readonly refuseBrokenAnswers: boolean;
  /** The root element of an XML body whose schema has no `xml.name`: the component's name (ours), or `xml` (Prism). */
  readonly xmlRoot: 'component' | 'xml';
  /** A `text/*` answer whose value is not text (an object, a number) is sent as JSON text (ours), or refused with a 500 (Prism). */
  readonly onlyTextAsText: boolean;
  /** Every answer's body checked against its schema (Prism), not only generated and echoed ones (ours: examples are checked at start). */
  readonly checkEveryAnswer: boolean;
  /**
   * Bound to a non-loopback address without an admin token: refuse to start (ours: /__admin would
   * be open to the network), or start with /__admin switched off (Prism has none, so Prism's
   * command line with `-h 0.0.0.0` starts as it is; an admin token turns it back on).
   */
  readonly exposedWithoutAdminToken: 'refuse' | 'admin off';
}

export interface CompatOptions {
  compat?: CompatMode;
  dynamic?: boolean;
  errors?: boolean;
}

const STUB: CompatPolicy = Object.freeze({
  name: 'stub',
  staticData: 'realistic',
  echoRequests: true,
  dynamicByDefault: false,
  preferredMedia: 'json',
  headWithGet: true,
  brokenExamplesServed: false,
  wording: 'stub',
  refusals: 'stub',
  violationsHeader: false,
  refuseBrokenAnswers: false,
  xmlRoot: 'component',
  onlyTextAsText: false,
  checkEveryAnswer: false,
  exposedWithoutAdminToken: 'refuse',
});

const PRISM: CompatPolicy = Object.freeze({
  name: 'prism',
  staticData: 'sample',
  echoRequests: false,
  dynamicByDefault: false,
  preferredMedia: 'first',
  headWithGet: false,
  brokenExamplesServed: true,
  wording: 'ajv',
  refusals: 'prism',
  violationsHeader: true,
  refuseBrokenAnswers: false,
  xmlRoot: 'xml',
  onlyTextAsText: true,
  checkEveryAnswer: true,
  exposedWithoutAdminToken: 'admin off',
});

/** The policy for these options; `dynamic` and `errors` apply in either mode. */
export function compatPolicy(options: CompatOptions = {}): CompatPolicy {
  if (options.compat !== undefined && options.compat !== 'prism') throw new ConfigError('compat', `'prism' is the one compatibility mode, got '${String(options.compat)}'`);
  const base = options.compat === 'prism' ? PRISM : STUB;
  if (!options.dynamic && !options.errors) return base;
  return Object.freeze({
    ...base,
    dynamicByDefault: options.dynamic === true,
    refuseBrokenAnswers: options.errors === true,
    // A broken answer can only be refused if every answer is checked.
    checkEveryAnswer: base.checkEveryAnswer || options.errors === true,
  });
}

/** The default policy: the stub's own choices. */
export const STUB_POLICY = STUB;
