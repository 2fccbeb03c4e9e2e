import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { UsageError, sweep } from 'udsvstcp';
import { usePrivateTmpdir } from '../helpers/temp.js';

const tmp = usePrivateTmpdir();

describe("sweep() through the package's exports", () => {
  it('runs quick --test: ok rows in trials.csv, the summary document, progress events, nothing left running', async () => {
    const out = join(tmp.dir, 'quick');
    /** @type {import('udsvstcp').SweepEvent[]} */
    const events = [];
    const summary = await sweep({ preset: 'quick', test: true, out, probe: false }, { onProgress: (event) => events.push(event) });
    const rows = parse(await readFile(join(out, 'trials.csv'), 'utf8'), { columns: true });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((/** @type {any} */ r) => r.status === 'ok')).toBe(true);
    expect(summary).toMatchObject({ dir: out, status: 'complete', trials: { recorded: rows.length, ok: rows.length, failed: 0 }, primary: { metric: 'msgs_per_s' }, spec: { preset: 'quick', test: true } });
    expect(summary.summary.length).toBeGreaterThan(0);
    expect(summary.files).toEqual(expect.arrayContaining([join(out, 'report.html'), join(out, 'summary.md')]));
    // what sweep --json prints of this directory is this document (report --json's)
    expect(JSON.parse(await readFile(join(out, 'meta.json'), 'utf8')).status).toBe('complete');
    const ends = events.filter((e) => e.type === 'trial-end');
    expect(ends.flatMap((e) => (e.type === 'trial-end' ? e.rows : []))).toHaveLength(rows.length);
    expect(events.findIndex((e) => e.type === 'start')).toBeLessThan(events.findIndex((e) => e.type === 'trial-start'));
    expect(events.some((e) => e.type === 'summary' && e.text.includes('UDS/TCP msgs/s'))).toBe(true);
    expect(await readdir(tmp.tmpdir)).toEqual([]); // the server's private directory is gone: it stopped
  }, 60_000);

  it('takes a spec object, stops at its abort signal keeping what was measured, and with report: false writes no report files', async () => {
    const out = join(tmp.dir, 'spec');
    const controller = new AbortController();
    const summary = await sweep({ preset: { sizes: [64, 128], depths: [1], runs: 3, packets: 50, warmup: 0, seed: 3 }, out, probe: false, report: false }, {
      signal: controller.signal,
      onProgress: (event) => { if (event.type === 'trial-end') controller.abort(); },
    });
    expect(summary).toMatchObject({ status: 'interrupted', trials: { recorded: 2, planned: 12 }, spec: { preset: 'spec', sizes: [64, 128] } });
    const meta = JSON.parse(await readFile(join(out, 'meta.json'), 'utf8'));
    expect(meta.status).toBe('interrupted');
    expect(meta.design.server_warmup).toMatch(/300 ms per transport/); // not test mode: the server is warmed
    expect(summary.files).toEqual([]);
    expect(summary.summary.length).toBeGreaterThan(0); // the findings are made all the same
    expect((await readdir(out)).sort()).toEqual(['blocks.csv', 'fixture.json', 'meta.json', 'runs-wide.csv', 'summary.csv', 'trials.csv']);
    expect(await readdir(tmp.tmpdir)).toEqual([]);
  }, 60_000);

  it('refuses bad input with a UsageError before anything is written', async () => {
    const out = join(tmp.dir, 'never');
    await expect(sweep({ preset: 'quick', out, runs: 0 })).rejects.toThrow(UsageError);
    await expect(sweep({ preset: 'quick', out, runs: 0 })).rejects.toThrow(/--runs/);
    await expect(sweep(/** @type {any} */ ({ preset: 'quick', out, sizez: '64' }))).rejects.toThrow(/unknown sweep option "sizez"/);
    await expect(sweep({ preset: 'no-such-preset', out })).rejects.toThrow(/unknown preset/);
    await expect(sweep({ preset: { sizes: [64], colour: 'red' }, out })).rejects.toThrow(/unknown key "colour"/);
    // a spec object takes a spec file's keys: a list key a list, never a comma-separated string (a flag's, as depths: '1,16' beside preset)
    await expect(sweep({ preset: { sizes: [64], transports: 'tcp,uds' }, out })).rejects.toThrow('the spec object "transports" must be a list of transport names ("tcp", "uds", "uds-abstract"); got the JSON string "tcp,uds" (a comma-separated list is for the flag --transports)');
    await expect(sweep({ preset: { sizes: [64], depths: '1,16' }, out })).rejects.toThrow(/^the spec object "depths" must be a list of whole numbers/);
    expect(await readdir(tmp.dir)).toEqual(['tmp']);
  });
});
