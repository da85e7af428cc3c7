// json-schema-faker and faker (English locale only) are imported dynamically and awaited once
// before a document is compiled, so generation itself stays synchronous on the request path.
// Faker may be left out for a document that never calls it (see mayUseFaker): in a browser its
// locale data is most of the page's download.
import type { generateSync as GenerateSync } from 'json-schema-faker';
import type { Faker, Randomizer } from '@faker-js/faker';

export interface GeneratorLibraries {
  generateSync: typeof GenerateSync;
  /** Builds a Faker with the English locale that draws from `randomizer`. */
  createFaker(randomizer: Randomizer): Faker;
}

let loaded: GeneratorLibraries | null = null;
let loadingJsf: Promise<void> | null = null;
let loadingFaker: Promise<void> | null = null;
let FakerClass: (new (options: { locale: unknown; randomizer: Randomizer }) => Faker) | null = null;
let english: unknown = null;

export function generatorLibraries(): GeneratorLibraries {
  if (!loaded) throw new Error('the data generator libraries were not loaded; await loadGeneratorLibraries() first');
  return loaded;
}

/** `faker: false` loads json-schema-faker alone, for a document mayUseFaker() clears. */
export function loadGeneratorLibraries({ faker = true }: { faker?: boolean } = {}): Promise<void> {
  loadingJsf ??= import('json-schema-faker').then((jsf) => {
    loaded = { generateSync: jsf.generateSync, createFaker };
  });
  // Only the English locale: the package's main entry would load every locale (about 40 MB).
  if (faker) {
    loadingFaker ??= import('@faker-js/faker/locale/en').then(({ faker: instance }) => {
      FakerClass = instance.constructor as typeof FakerClass;
      english = instance.rawDefinitions;
    });
  }
  return Promise.all([loadingJsf, faker ? loadingFaker : null]).then(() => undefined);
}

function createFaker(randomizer: Randomizer): Faker {
  if (!FakerClass) throw new Error('faker was not loaded for this document; loadGeneratorLibraries({ faker: true }) first');
  return new FakerClass({ locale: english, randomizer });
}
