/**
 * npm run bench:pacer runs end to end, tiny (--short): the pacer alone, then udsvstcp's echo server at a two-rate ladder
 * over TCP and UDS, its JSON on stdout with every field docs/openloop.md names. Its figures come from a quiet machine,
 * not from here: only their shape, the verdicts' rules on rows made up for them, and its refusals.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { climbed, findLimits, pacerKept } from '../bench/pacer.js';
import { runScript } from '../helpers/cli.js';

const PACER = fileURLToPath(new URL('../bench/pacer.js', import.meta.url));

/**
 * A record of the rate workload as run() gives it, kept unless told otherwise.
 * @param {string} transport
 * @param {number} rate
 * @param {Record<string, any>} [over]
 */
const row = (transport, rate, over = {}) => ({
  run: 0, workload: 'rate', size_bytes: 64, depth: rate, transport, status: 'ok', rate_target: rate, rate_sent: rate, limit: 'none',
  lag_p99_us: 20, client_cpu_us_per_req: 30, server_cpu_us_per_req: 10, ...over,
});

describe('npm run bench:pacer', () => {
  it('--short: the pacer alone and a ladder against the echo server over TCP and UDS, a JSON document on stdout', async () => {
    const { code, stdout, stderr } = await runScript(PACER, ['--short'], { timeoutMs: 90_000 });
    expect(code, stderr).toBe(0);
    const doc = JSON.parse(stdout);
    expect(doc).toMatchObject({ bench: 'pacer', alone: { duration_ms: 200 }, server: { size_bytes: 64, ladder: [1000, 2000], criteria: { lag_p99_us_max: 50, rate_sent_tolerance: 0.005 } } });
    expect(doc.alone.rows).toHaveLength(1);
    expect(doc.alone.rows[0]).toMatchObject({ rate: 2000, packets: 400, sent: 400 });
    expect(doc.alone.rows[0].lag_p99_us).toBeGreaterThan(0);
    // the ladder climbs from its bottom, both transports at each rate it offered
    const rates = [...new Set(doc.server.rows.map((/** @type {any} */ r) => r.rate_target))];
    expect(rates).toEqual([1000, 2000].slice(0, rates.length));
    expect(rates.length).toBeGreaterThan(0);
    for (const r of doc.server.rows) {
      expect(r.status, r.error).toBe('ok');
      expect(['none', 'server', 'generator']).toContain(r.limit);
      expect(typeof r.pacer_kept).toBe('boolean');
      for (const k of ['rate_sent', 'rate_completed', 'lag_p50_us', 'lag_p99_us', 'client_cpu_us_per_req', 'server_cpu_us_per_req']) expect(r[k], k).toBeGreaterThan(0);
    }
    expect(doc.server.rows.map((/** @type {any} */ r) => r.transport).sort()).toEqual(rates.flatMap(() => ['tcp', 'uds']).sort());
    expect(doc.server.transports.map((/** @type {any} */ t) => t.transport)).toEqual(['tcp', 'uds']);
    for (const t of doc.server.transports) {
      expect(Object.keys(t).sort()).toEqual(['at_knee', 'first_generator_miss', 'first_server_miss', 'highest_kept', 'knee', 'knee_stopped_by', 'pacer_max_rate', 'saturates_first', 'transport']);
      expect(['generator', 'server', 'both', 'neither']).toContain(t.saturates_first);
    }
    expect(stderr).toMatch(/^rate\/s +transport +sent\/s +done\/s +dropped +lag p50 µs +lag p99 µs +pacer +limit +resp p50 µs +cpu µs\/req cli +srv$/m);
    expect(stderr).toMatch(/^tcp: the pacer kept its schedule .*; knee .*; saturates first: /m);
  }, 100_000);

  it('says which saturates first: the generator when its lag or sent/s fails first, the server when it falls behind a pacer on schedule', () => {
    const rows = [
      row('tcp', 1000), row('tcp', 2000, { lag_p99_us: 80 }), row('tcp', 4000, { limit: 'server' }),
      row('uds', 1000), row('uds', 2000, { limit: 'server', server_cpu_us_per_req: 12 }), row('uds', 4000, { limit: 'server', rate_sent: 3900 }),
    ];
    expect(findLimits(rows, ['tcp', 'uds'])).toEqual([
      { transport: 'tcp', pacer_max_rate: 4000, knee: 2000, highest_kept: 2000, knee_stopped_by: 'server', saturates_first: 'generator', first_generator_miss: 2000, first_server_miss: 4000, at_knee: { client_cpu_us_per_req: 30, server_cpu_us_per_req: 10 } },
      { transport: 'uds', pacer_max_rate: 2000, knee: 1000, highest_kept: 1000, knee_stopped_by: 'server', saturates_first: 'server', first_generator_miss: 4000, first_server_miss: 2000, at_knee: { client_cpu_us_per_req: 30, server_cpu_us_per_req: 10 } },
    ]);
    // both at one rate; none within the ladder; a knee the generator ended
    const more = [row('tcp', 1000, { limit: 'server', rate_sent: 990 }), row('uds', 1000), row('uds', 2000, { limit: 'generator', lag_p99_us: 900 })];
    expect(findLimits(more, ['tcp', 'uds']).map((l) => [l.saturates_first, l.pacer_max_rate, l.knee, l.knee_stopped_by])).toEqual([['both', null, null, 'server'], ['generator', 1000, 1000, 'generator']]);
    // a rate kept above one missed (a pause of the machine at 1000/s) is the knee: the largest rate kept
    expect(findLimits([row('tcp', 1000, { limit: 'server', lag_p99_us: 900 }), row('tcp', 2000)], ['tcp'])[0]).toMatchObject({ knee: 2000, highest_kept: 2000, pacer_max_rate: 2000, saturates_first: 'both' });
    expect(findLimits([row('tcp', 1000)], ['tcp', 'uds'])).toMatchObject([{ saturates_first: 'neither', knee: 1000, knee_stopped_by: null, first_server_miss: null }, { saturates_first: null, knee: null }]);
    // sent/s within 0.5 % of the target, either way
    expect([995, 1005, 994, 1006].map((s) => pacerKept(row('tcp', 1000, { rate_sent: s })))).toEqual([true, true, false, false]);
  });

  it('climbs until every transport missed both criteria at two rates in a row', () => {
    const missed = { limit: 'server', lag_p99_us: 900 };
    expect(climbed([row('tcp', 1000, missed)], ['tcp'])).toBe(false);
    expect(climbed([row('tcp', 1000, missed), row('tcp', 2000, missed)], ['tcp'])).toBe(true);
    expect(climbed([row('tcp', 1000, missed), row('tcp', 2000, { lag_p99_us: 900 }), row('tcp', 4000, missed)], ['tcp'])).toBe(false); // 2000: kept by the server
    expect(climbed([row('tcp', 1000, missed), row('tcp', 2000, missed), row('uds', 1000, missed), row('uds', 2000, { limit: 'server' })], ['tcp', 'uds'])).toBe(false); // uds's pacer kept 2000
  });

  it('refuses a ladder that does not rise, and a bad --pin, with one line and exit 2, before measuring', async () => {
    const ladder = await runScript(PACER, ['--ladder', '2000,1000']);
    expect([ladder.code, ladder.stdout, ladder.stderr]).toEqual([2, '', 'pacer: error: --ladder must be up to 64 rising whole numbers from 1 to 1000000; got "2000,1000"\n']);
    // a first rate run() would refuse is named as --ladder's, not as --rate's
    const zero = await runScript(PACER, ['--ladder', '0,1000']);
    expect([zero.code, zero.stderr]).toEqual([2, 'pacer: error: --ladder must be up to 64 rising whole numbers from 1 to 1000000; got "0,1000"\n']);
    const pin = await runScript(PACER, ['--pin', 'sideways']);
    expect(pin.code).toBe(2);
    expect(pin.stdout).toBe('');
    expect(pin.stderr).toMatch(/^pacer: error: --pin .*sideways.*\n$/);
  });
});
