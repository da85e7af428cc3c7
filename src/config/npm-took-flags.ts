// `npm start --spec x` (the `--` forgotten) hands `--spec` to npm, not to the stub: npm keeps it as
// its own configuration (the environment variable npm_config_spec, "true" when the value was a
// separate word) and passes `x` on as a bare argument, so the stub would start on the default
// document or refuse a stray `x`. Under an npm script, such variables that name the stub's flags
// are how the mistake shows.

/** npm's own settings that share a name with a stub flag: set by a user's .npmrc, not by the mistake. */
const NPM_SETTINGS = new Set(['proxy', 'quiet', 'help', 'version']);

export interface FlagNpmTook {
  flag: string;
  /** The value npm kept, when it was written `--flag=value`. */
  value?: string;
  /** Whether the flag takes a value (`--spec FILE`) or is a switch (`--stateful`). */
  takesValue: boolean;
}

/** The stub's flags npm took for itself, in `flags`' order; none when not run by an npm script (`npm_lifecycle_event` unset). */
export function flagsNpmTook(env: Record<string, string | undefined>, flags: readonly string[], takesValue: (flag: string) => boolean): FlagNpmTook[] {
  if (env.npm_lifecycle_event === undefined) return [];
  return flags.flatMap((flag) => {
    const value = NPM_SETTINGS.has(flag) ? undefined : env[`npm_config_${flag.replace(/-/g, '_')}`];
    if (value === undefined) return [];
    return [{ flag: `--${flag}`, value: value === 'true' || value === '' ? undefined : value, takesValue: takesValue(flag) }];
  });
}

/** The one line that says what happened and the command that works. */
export function npmTookFlagsProblem(took: FlagNpmTook[], script: string): string {
  const command = script === 'start' ? 'npm start' : `npm run ${script}`;
  const flags = took.map(({ flag, value, takesValue }) => (takesValue ? `${flag} ${value ?? '…'}` : flag)).join(' ');
  return `npm took ${took.map(({ flag }) => flag).join(', ')} for itself, not for the stub; put the stub's flags after --: ${command} -- ${flags}`;
}
