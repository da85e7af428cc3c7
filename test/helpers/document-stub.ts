// A stub started on a document a test writes out: the text goes to a fresh temporary folder, the
// stub serves it on a free port without fixtures, watching or logging, and closing the stub also
// removes the folder.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStub, type RunningStub, type StubOptions } from '../../src/index.js';

export interface DocumentStub extends RunningStub {
  /** Where the document was written. */
  file: string;
}

export async function startStubOn(document: string, options: StubOptions = {}): Promise<DocumentStub> {
  const dir = await mkdtemp(join(tmpdir(), 'stub-document-'));
  const removeDir = () => rm(dir, { recursive: true, force: true });
  try {
    const file = join(dir, 'spec.yaml');
    await writeFile(file, document);
    const stub = await startStub({ spec: file, fixtures: join(dir, 'none'), port: 0, watch: false, log: () => {}, ...options });
    return {
      ...stub,
      file,
      close: async (graceMs) => {
        await stub.close(graceMs);
        await removeDir();
      },
    };
  } catch (error) {
    await removeDir();
    throw error;
  }
}
