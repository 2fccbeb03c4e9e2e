import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.js'],
    // real processes and sockets on a 2-core machine: few files at once
    fileParallelism: true,
    maxWorkers: 2,
    // each worker imports vitest and lib/ once, not once per file: the unit files took 34 s alone, 7 s so;
    // a test that changes process state (TMPDIR, PATH) puts it back
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // npm run test:coverage: lines of lib/ run in the test processes (code run only in a spawned CLI is not counted)
    coverage: {
      provider: 'v8',
      include: ['lib/**/*.js'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
    },
  },
});
