// Tests spawn servers and CLIs on a 2-core machine that may be busy: the default 5 s per test was
// seen running out for CLIs that refuse to start (one line, exit 2) while the load average was 10.
// A bound on how long a test may hang, not a claim about speed (speed is npm run bench's).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
