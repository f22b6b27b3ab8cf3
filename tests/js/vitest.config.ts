import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['tests/js/**/*.test.ts'],
    environment: 'node',
    // One line per test: the names say which flavour each ran on.
    reporters: ['verbose'],
    // Child processes: the threaded flavour's worker_threads end with each test file's process.
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    server: {
      deps: {
        // Test what ships: Node itself loads the built package and its Emscripten glue, as it
        // would for a user, instead of Vite transforming them.
        external: [/\/bindings-js\/dist\//],
      },
    },
  },
});
