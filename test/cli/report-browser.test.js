import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReport } from '../../lib/report/report-files.js';
import { makeTempDir } from '../helpers/cli.js';
import { ENVIRONMENT, errorRow, okRow, writeResults } from '../helpers/results-fixture.js';

// Debian's chromium (.ci/run installs it when missing). Missing is a failure, not a skip.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());

describe('report.html in a real headless Chromium, offline', () => {
  it('draws every chart, loads nothing from anywhere, and logs no error', async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} not found: install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH`).toBe(true);
    const dir = join(tmp.dir, 'results');
    await mkdir(dir);
    const rows = [];
    for (let run = 0; run < 3; run++) {
      for (const [size, tcp, uds] of [[1, 9000, 12000], [64, 8800, 11500], [1024, 8000, 10000], [16384, 5000, 8000]]) {
        for (const depth of [1, 16]) rows.push(okRow(run, 'tcp', size, depth, tcp * depth * (1 + run / 50)), okRow(run, 'uds', size, depth, uds * depth * (1 - run / 60)));
      }
    }
    rows.push(errorRow(3, 'uds', 64, 1, 'connect ECONNREFUSED'));
    await writeResults(dir, rows, { status: 'interrupted', environment: ENVIRONMENT, spec: { sizes: [1, 64, 1024, 16384], depths: [1, 16], transports: ['tcp', 'uds'], runs: 4 } });
    const { files } = await writeReport(dir);
    const charts = files.filter((f) => f.endsWith('.svg')).length;
    expect(charts).toBe(4);

    const profile = join(tmp.dir, 'profile');
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      offline: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = context.pages()[0] ?? await context.newPage();
      /** @type {string[]} */
      const problems = [];
      /** @type {string[]} */
      const requests = [];
      page.on('console', (message) => { if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`); });
      page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
      page.on('request', (request) => requests.push(request.url()));
      await context.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
      const url = pathToFileURL(join(dir, 'report.html')).href;
      await page.goto(url, { waitUntil: 'load' });

      const drawn = await page.$$eval('figure', (figures) => figures.map((figure) => {
        const svg = figure.querySelector('svg');
        const box = svg?.getBoundingClientRect();
        const lines = [...(svg?.querySelectorAll('path[aria-roledescription="line mark"]') ?? [])];
        return {
          id: figure.id,
          width: box?.width ?? 0,
          height: box?.height ?? 0,
          lines: lines.length,
          drawnLines: lines.filter((p) => { const b = p.getBoundingClientRect(); return b.width > 0 && (p.getAttribute('d') ?? '').length > 10; }).length,
        };
      }));
      expect(drawn.map((d) => d.id)).toEqual(['chart-msgs_per_s', 'chart-uds-vs-tcp', 'chart-cpu', 'chart-rtt']);
      for (const chart of drawn) {
        expect(chart.width, chart.id).toBeGreaterThan(200);
        expect(chart.height, chart.id).toBeGreaterThan(100);
        expect(chart.lines, chart.id).toBeGreaterThanOrEqual(2);
        expect(chart.drawnLines, chart.id).toBe(chart.lines);
      }
      expect(await page.textContent('body')).toContain('sweep interrupted');
      expect(problems).toEqual([]);
      expect(requests).toEqual([url]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
