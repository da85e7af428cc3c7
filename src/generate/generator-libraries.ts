// json-schema-faker and faker cost more start-up time and memory than the rest of the stub, and
// many runs never generate data (echo and fixtures cover the plant store). They load on first use:
// the first request that needs them waits for the import and is then handled again.
import type { generateSync as GenerateSync } from 'json-schema-faker';
import type { Faker, Randomizer } from '@faker-js/faker';

export interface GeneratorLibraries {
  generateSync: typeof GenerateSync;
  /** Builds a Faker with the English locale that draws from `randomizer`. */
  createFaker(randomizer: Randomizer): Faker;
}

/** Thrown by generation before the libraries are loaded; the caller awaits `loadGeneratorLibraries` and retries. */
export class GeneratorNotLoaded extends Error {
  constructor() {
    super('the data generator is still loading');
  }
}

let loaded: GeneratorLibraries | null = null;
let loading: Promise<void> | null = null;

export function generatorLibraries(): GeneratorLibraries {
  if (!loaded) throw new GeneratorNotLoaded();
  return loaded;
}

export function loadGeneratorLibraries(): Promise<void> {
  // Only the English locale: the package's main entry would load every locale (about 40 MB).
  loading ??= Promise.all([import('json-schema-faker'), import('@faker-js/faker/locale/en')]).then(([jsf, { faker }]) => {
    const FakerClass = faker.constructor as new (options: { locale: unknown; randomizer: Randomizer }) => Faker;
    loaded = {
      generateSync: jsf.generateSync,
      createFaker: (randomizer) => new FakerClass({ locale: faker.rawDefinitions, randomizer }),
    };
  });
  return loading;
}

/** Runs `work`, loading the libraries first if it needs them (at most one retry). */
export async function withGeneratorLibraries<T>(work: () => T): Promise<T> {
  try {
    return work();
  } catch (error) {
    if (!(error instanceof GeneratorNotLoaded)) throw error;
    await loadGeneratorLibraries();
    return work();
  }
}
