// Where the server's stateful mode keeps its shared store, handed to state-access.ts: the whole
// server's when there is one (--workers: the cluster primary's, --state-store: Redis), else one in
// this process, loaded from --state-file and written back to it after changes. Node's part of
// stateful mode; the page keeps its store in memory (state-access.ts's inMemoryStore).
import type { ResolvedOptions } from '../config/options.js';
import { placedState } from '../engine/state-question.js';
import { LocalStateStore } from './local-state-store.js';
import { checkStateFile, readStateFile, StateFileWriter } from './state-file.js';
import { ClusterWhole } from './cluster-whole.js';
import type { WholeServer } from './whole-server.js';
import type { ServedVersion } from './served-version.js';
import type { StoreProvider } from './state-access.js';
import { AskElsewhere } from './ask-elsewhere.js';

export function serverStateStore(options: ResolvedOptions, version: ServedVersion, whole: WholeServer | null, warn: (line: string) => void): StoreProvider {
  const resources = version.current.resources!;
  return async (seed) => {
    if (whole instanceof ClusterWhole) {
      // With --workers the primary read the --state-file; it is checked against the document here, since the primary has none.
      const text = await whole.stateFileText();
      if (text !== null) await whole.adoptStateFile(placedState(resources, checkStateFile(options.stateFile!, text, resources)));
    }
    if (whole) {
      await whole.store.seed(seed);
      return { store: whole.store, elsewhere: new AskElsewhere() };
    }
    let stateFile: StateFileWriter | null = null;
    const store = new LocalStateStore(() => stateFile?.changed(), options.maxStateBytes);
    const loaded = options.stateFile === undefined ? null : readStateFile(options.stateFile, resources);
    if (loaded !== null) store.replace(placedState(resources, loaded));
    store.seed(seed);
    if (options.stateFile !== undefined) stateFile = new StateFileWriter(options.stateFile, () => store.dump(), warn);
    return { store, flush: () => stateFile?.flush() };
  };
}
