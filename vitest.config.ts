import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // A worker runs file after file without re-importing the server's modules for each: importing
    // them took several seconds per file, a third of the run. Suites hold no module state of their
    // own between files (servers, databases and tenants are each file's), and module state of the
    // server must not leak between servers either, as in production, where one process serves on.
    isolate: false,
    // Vitest's default is one worker fewer than cores: one on the 2-core CI machine, where a suite
    // mostly waits for its server, PostgreSQL or Elasticsearch. At least two suites side by side.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Outbound network calls are bugs in tests: everything talks to loopback.
    env: { NO_PROXY: '*' },
  },
});
