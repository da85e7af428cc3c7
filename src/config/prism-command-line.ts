// Prism's command line, taken as it is: `plant-store-stub mock openapi.yaml -p 4010 -h 0.0.0.0 -d
// --errors` is read as `--spec openapi.yaml --port 4010 --host 0.0.0.0 --dynamic --errors
// --compat prism`, so a team switching from Prism keeps its scripts. The stub's own flags may
// follow (`mock api.yaml -p 0 --seed 3`).

/** Prism's flags with a value and the stub's flag each one is. */
const WITH_VALUE: Record<string, string> = { '-p': '--port', '--port': '--port', '-h': '--host', '--host': '--host' };
/** Prism's switches and what each is in the stub (null: nothing to do, the stub already behaves so). */
const SWITCHES: Record<string, string | null> = {
  '-d': '--dynamic',
  '--dynamic': '--dynamic',
  '--errors': '--errors',
  '--cors=false': '--no-cors',
  '--cors': null,
  '--cors=true': null,
  // One process answers as Prism's several: --workers N is the stub's way to use more cores.
  '-m': null,
  '--multiprocess': null,
};

/**
 * The arguments after `mock` as the stub's own; `--compat prism` is implied. `takesValue`: whether
 * one of the stub's own flags takes the argument after it (`--fixtures DIR`).
 */
export function prismArguments(args: readonly string[], takesValue: (flag: string) => boolean): string[] {
  const out = ['--compat', 'prism'];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const [flag, inline] = arg.startsWith('-') && arg.includes('=') && !(arg in SWITCHES) ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (flag in WITH_VALUE) {
      out.push(WITH_VALUE[flag]);
      if (inline !== undefined) out.push(inline);
      else if (i + 1 < args.length) out.push(args[++i]);
    } else if (arg in SWITCHES) {
      const mapped = SWITCHES[arg];
      if (mapped !== null) out.push(mapped);
    } else if (!arg.startsWith('-')) {
      out.push('--spec', arg);
    } else {
      out.push(arg);
      if (!arg.includes('=') && takesValue(arg) && i + 1 < args.length) out.push(args[++i]);
    }
  }
  return out;
}
