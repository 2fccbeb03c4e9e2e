import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.js'],
    // real processes and sockets on a 2-core machine: few files at once. Three, not two: a file's
    // processes wait on each other (a lane for its server, a sweep for its lanes) and two left the
    // cores idle a fifth of the time (Node 20: 181 and 194 s with 2, 162 s with 3; 4 was no faster)
    fileParallelism: true,
    maxWorkers: 3,
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
