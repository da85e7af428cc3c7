// Larger specs for the "how cost grows" cases, generated from openapi.yaml into .bench-tmp/
// (gitignored) so they never drift from the real Plant Store operation.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { load as parseYaml, dump as stringifyYaml } from 'js-yaml';

/** Every 4th operation gets a path template, so routing has to match templates too, not only literals. */
const isTemplated = (i) => i % 4 === 3;

/**
 * Writes a copy of `source` whose paths hold `count` copies of POST /plants: /plants0, /plants1, ...
 * with every 4th one templated as /plantsN/{id}. Returns the file and the literal path of the last
 * plain operation, which the load targets: a router that scans in order pays the most for it.
 */
export async function writeScaledSpec(source, count, dir) {
  const doc = parseYaml(await readFile(source, 'utf8'));
  const operation = doc.paths['/plants'].post;
  const paths = {};
  let target = null;
  for (let i = 0; i < count; i++) {
    const op = structuredClone(operation);
    op.operationId = `createPlant${i}`;
    if (isTemplated(i)) {
      op.parameters = [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }];
      paths[`/plants${i}/{id}`] = { post: op };
    } else {
      paths[`/plants${i}`] = { post: op };
      target = `/plants${i}`;
    }
  }
  doc.paths = paths;
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `openapi-${count}-ops.yaml`);
  await writeFile(file, stringifyYaml(doc, { noRefs: true }));
  return { file, target };
}
