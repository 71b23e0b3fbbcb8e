import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: ONE on the 2-core CI machine, so every file
    // ran after the other while most of their time is spent waiting on PostgreSQL, Elasticsearch and
    // Chromium. Two files at once keep both cores busy; files that change shared state use databases
    // and servers of their own (isolatedDatabase, their own Elasticsearch or PostgreSQL cluster).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Outbound network calls are bugs in tests: everything talks to loopback.
    env: { NO_PROXY: '*' },
  },
});
