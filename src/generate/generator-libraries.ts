// json-schema-faker and faker (English locale only) are imported dynamically and awaited once
// before a document is compiled, so generation itself stays synchronous on the request path.
import type { generateSync as GenerateSync } from 'json-schema-faker';
import type { Faker, Randomizer } from '@faker-js/faker';

export interface GeneratorLibraries {
  generateSync: typeof GenerateSync;
  /** Builds a Faker with the English locale that draws from `randomizer`. */
  createFaker(randomizer: Randomizer): Faker;
}

let loaded: GeneratorLibraries | null = null;
let loading: Promise<void> | null = null;

export function generatorLibraries(): GeneratorLibraries {
  if (!loaded) throw new Error('the data generator libraries were not loaded; await loadGeneratorLibraries() first');
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
