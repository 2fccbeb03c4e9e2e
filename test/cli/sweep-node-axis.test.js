/**
 * `sweep quick --test --node <this Node>,<another>`: one sweep measures both
 * versions, each with its own server and trial processes, interleaved within
 * every run, and compares them (UDS/TCP ratio of ratios and each transport's
 * figure, version / baseline) in every output. Needs a second Node:
 * UDSVSTCP_TEST_NODE2 (test/helpers/nodes.js).
 */
import { mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, callMain, expectOneLineUsageError } from '../helpers/cli.js';
import { shellQuote } from '../../lib/core/shell.js';
import { readXlsx } from '../helpers/xlsx.js';
import { secondNode } from '../helpers/nodes.js';
import { readMetaJson, readTrialRows, startSweep, writeTinySpec } from '../helpers/sweeps.js';
import { spawnSync } from 'node:child_process';
import { copyResultsDir, useTempDir } from '../helpers/temp.js';

const tmp = useTempDir();
const node2 = secondNode();
const [v1, v2] = [process.version, node2.version];

describe('sweep quick --test --node <node>,<node2>', () => {
  const out = () => join(tmp.dir, 'axis');
  /** @type {Awaited<ReturnType<typeof callMain>>} */
  let result;
  beforeAll(async () => {
    // --no-probe: the wake-up probe is no part of the Node axis (sweep-machine.test.js has it)
    result = await callMain(['sweep', 'quick', '--test', '--seed', '5', '--no-probe', '--node', `${process.execPath},${node2.path}`, '--out', out(), '--json']);
  }, 130_000);

  it('exits 0, says which Node executables ran (path and version), and starts a server on each', () => {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`node: ${process.execPath} (${v1}, V8 ${process.versions.v8}, libuv ${process.versions.uv}); ${node2.path} (${v2}, `);
    expect(result.stderr).toContain(`${v1} is the baseline`);
    for (const v of [v1, v2]) expect(result.stderr).toMatch(new RegExp(`echo server pid \\d+: .* \\(node ${v}\\)`));
  });

  it('writes trial and block rows for both versions, each run measuring both, interleaved in one order', async () => {
    const rows = await readTrialRows(out());
    expect(rows).toHaveLength(2 * 2 * 2); // runs × versions × transports
    for (const row of rows) expect(row.status, row.error).toBe('ok');
    for (const run of ['0', '1']) {
      const inRun = rows.filter((r) => r.run === run);
      expect(new Set(inRun.map((r) => r.node_version))).toEqual(new Set([v1, v2]));
      expect(new Set(inRun.map((r) => r.order))).toEqual(new Set(['0', '1'])); // one order per run, across versions
    }
    const blocks = parse(await readFile(join(out(), 'blocks.csv'), 'utf8'), { columns: true });
    expect(new Set(blocks.map((/** @type {any} */ b) => b.node_version))).toEqual(new Set([v1, v2]));
    const wide = await readFile(join(out(), 'runs-wide.csv'), 'utf8');
    expect(wide).toContain(`UDS Size 64 Node ${v1},`);
    expect(wide).toContain(`TCP Size 64 Node ${v2},`);
  });

  it("records each executable's version, V8, libuv, path and how it was given in meta.json", async () => {
    const meta = await readMetaJson(out());
    expect(meta.nodes).toEqual([
      { version: v1, v8: process.versions.v8, libuv: process.versions.uv, path: process.execPath, given: process.execPath },
      { version: v2, v8: expect.any(String), libuv: expect.any(String), path: node2.path, given: node2.path },
    ]);
    expect(meta.sessions[0].nodes).toEqual(meta.nodes);
    expect(meta.spec.node).toEqual([process.execPath, node2.path]);
  });

  it('summarises each version, then the later one against the baseline: the ratio of UDS/TCP ratios and each transport, with intervals', async () => {
    /** @type {Record<string, any>[]} */
    const summary = parse(await readFile(join(out(), 'summary.csv'), 'utf8'), { columns: true });
    for (const v of [v1, v2]) expect(summary.some((/** @type {any} */ r) => r.node_version === v && r.transport === 'uds/tcp' && r.metric === 'msgs_per_s')).toBe(true);
    const compared = summary.filter((/** @type {any} */ r) => r.node_version === `${v2}/${v1}` && r.metric === 'msgs_per_s');
    expect(compared.map((/** @type {any} */ r) => r.transport)).toEqual(['uds/tcp', 'tcp', 'uds']);
    // the per-run pairing: version / baseline of each transport, from the trial rows of the same run
    const rows = await readTrialRows(out());
    const figure = (/** @type {string} */ v, /** @type {string} */ t, /** @type {string} */ run) => Number(rows.find((r) => r.node_version === v && r.transport === t && r.run === run)?.msgs_per_s);
    const tcp = Math.sqrt((figure(v2, 'tcp', '0') / figure(v1, 'tcp', '0')) * (figure(v2, 'tcp', '1') / figure(v1, 'tcp', '1')));
    const row = compared.find((r) => r.transport === 'tcp') ?? {};
    expect(Number(row.geomean)).toBeCloseTo(tcp, 4);
    expect([row.unit, row.n, Number(row.ci95_low) < Number(row.geomean), Number(row.geomean) < Number(row.ci95_high)]).toEqual(['ratio', '2', true, true]);
  });

  it('shows the comparison in the printed summary and verdicts, summary.md, report.html (a line per version), results.xlsx and --json', async () => {
    expect(result.stderr).toContain(`Node versions against ${v1} (the first given)`);
    expect(result.stderr).toMatch(new RegExp(`${v2}/${v1} 64 B depth 1 +×`));
    expect(result.stderr).toContain(`Node ${v2} against ${v1}: UDS/TCP msgs/s ×`);
    const md = await readFile(join(out(), 'summary.md'), 'utf8');
    expect(md).toContain('## Node versions');
    expect(md).toContain(`## Node ${v1}, depth 1`);
    expect(md).toContain(`| UDS/TCP msgs/s, ${v2}/${v1} (×) |`);
    const html = await readFile(join(out(), 'report.html'), 'utf8');
    expect(html).toMatch(new RegExp(`<h2>Node versions</h2>\\s*<ul><li class="verdict">Node ${v2} against ${v1}: `));
    expect(html).toContain(`<li>${v1} (V8 ${process.versions.v8}, libuv ${process.versions.uv}): ${process.execPath} — the baseline</li>`);
    const sheet = (await readXlsx(join(out(), 'results.xlsx'))).sheet('summary');
    const header = /** @type {string[]} */ (sheet.values(1));
    const labels = Array.from({ length: sheet.rowCount - 1 }, (_, i) => sheet.cell(i + 2, header.indexOf('node_version') + 1).value);
    expect(labels).toContain(`${v2}/${v1}`);
    const json = JSON.parse(result.stdout);
    expect(json.versions).toEqual([expect.objectContaining({ workload: 'echo', node: v2, base: v1, primary: 'msgs_per_s', line: expect.stringMatching(new RegExp(`^Node ${v2} against ${v1}: `)) })]);
    expect(json.versions[0]).toMatchObject({ ratios: ['uds/tcp'], transports: ['tcp', 'uds'] });
    expect(json.versions[0].groups).toEqual([{ size_bytes: 64, depth: 1, ratios: { 'uds/tcp': expect.objectContaining({ n: 2 }) }, transports: { tcp: expect.any(Object), uds: expect.any(Object) } }]);
    expect(json.sections.map((/** @type {any} */ s) => s.node)).toEqual([v1, v2]);
    expect(json.nodes.map((/** @type {any} */ n) => n.version)).toEqual([v1, v2]);
  });

  it('--resume takes the executables from --node (any order), never from meta.json, cuts back a trial cut short after the other version\'s trial of the same group, and measures it again under its version', async () => {
    const dir = await copyResultsDir(out(), tmp.dir, 'axis-resume');
    const lines = (await readFile(join(dir, 'trials.csv'), 'utf8')).trimEnd().split('\n');
    // the last trial (run 1, after the other version's trial of the same group) with one of its two rows written
    const cut = lines.slice(0, 8);
    const last = cut[7].split(',');
    expect(cut[6].split(',').slice(0, 4)).toEqual(['1', cut[6].split(',')[1], 'echo', last[3] === v1 ? v2 : v1]);
    await writeFile(join(dir, 'trials.csv'), `${cut.join('\n')}\n`);
    const resumed = await callMain(['sweep', '--resume', dir, '--node', `${node2.path},${process.execPath}`]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain("trials.csv line 8: the last trial's rows were not all written (a sweep stopped mid-write); its 1 row(s) were cut back, and that trial is measured again");
    const rows = await readTrialRows(dir);
    expect(rows).toHaveLength(8);
    expect(new Set(rows.map((r) => `${r.run}|${r.node_version}|${r.transport}`)).size).toBe(8);
    expect(rows.filter((r) => r.run === '1' && r.node_version === last[3]).map((r) => r.status)).toEqual(['ok', 'ok']);
    const meta = await readMetaJson(dir);
    expect(meta.nodes.map((/** @type {any} */ n) => n.version)).toEqual([v1, v2]); // the recorded order: the baseline stays
    expect(meta.sessions[1].nodes.map((/** @type {any} */ n) => n.path)).toEqual([process.execPath, node2.path]);
    expect(await readFile(join(dir, 'summary.md'), 'utf8')).toContain(`Node ${v2} against ${v1}: `); // the report of the whole
  }, 130_000);

  it('--resume with Nodes of other versions than recorded exits 2 naming --node and the recorded versions, changing nothing', async () => {
    const dir = await copyResultsDir(out(), tmp.dir, 'axis-mismatch');
    const before = await Promise.all((await readdir(dir)).sort().map(async (f) => [f, await readFile(join(dir, f))]));
    for (const args of [[], ['--node', process.execPath], ['--node', node2.path]]) {
      const resumed = await callMain(['sweep', '--resume', dir, ...args]);
      expectOneLineUsageError(resumed, new RegExp(`--resume .* was measured with Node ${v1}, ${v2}; .*give --node with one executable of each recorded version`));
    }
    const after = await Promise.all((await readdir(dir)).sort().map(async (f) => [f, await readFile(join(dir, f))]));
    expect(after).toEqual(before);
  }, 90_000);
});

describe('Ctrl-C on a --node sweep', () => {
  it('prints a resume command with the --node list, as report, summary.md and report.html do; that very command completes the sweep', async () => {
    // the baseline by a name on PATH, the other by its path: the command names them as given
    const bin = join(tmp.dir, 'bin');
    await mkdir(bin);
    await symlink(process.execPath, join(bin, 'node-base'));
    const env = { PATH: `${bin}${delimiter}${process.env.PATH}` };
    const out = join(tmp.dir, 'interrupted');
    let sent = false;
    // --no-report: the report files checked below are the ones `report` writes
    const sweep = startSweep([await writeTinySpec(tmp.dir, { sizes: [64], runs: 1 }), '--test', '--node', `node-base,${node2.path}`, '--out', out, '--no-probe', '--no-report'], {
      env,
      onStderr: (text, child) => {
        if (!sent && text.includes('[1/2]')) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    });
    const { code, stderr } = await sweep.done;
    expect(code, stderr).toBe(130);
    const command = `npx udsvstcp sweep --resume ${out} --node node-base,${node2.path}`;
    expect(stderr).toContain(`Resume with:\n  ${command}\n`);
    const report = await callMain(['report', out]); // in this process: report runs no Node
    expect(report.code, report.stderr).toBe(0);
    expect(report.stderr).toContain(`complete it with: ${command}\n`);
    expect(await readFile(join(out, 'summary.md'), 'utf8')).toContain(`complete it with: ${command.replace(/_/g, '\\_')}\n`);
    expect(await readFile(join(out, 'report.html'), 'utf8')).toContain(`complete it with: ${command}</li>`);
    // the line as printed, pasted into a shell (npx udsvstcp being this checkout's binary)
    const pasted = spawnSync('/bin/sh', ['-c', command.replace(/^npx udsvstcp /, `${shellQuote(process.execPath)} ${shellQuote(BIN)} `)], { cwd: tmp.dir, env: { ...process.env, ...env, NO_COLOR: '1' }, encoding: 'utf8', timeout: 120_000 });
    expect(pasted.status, pasted.stderr).toBe(0);
    const rows = await readTrialRows(out);
    expect(rows).toHaveLength(2 * 2); // versions × transports
    expect(rows.every((r) => r.status === 'ok')).toBe(true);
    expect((await readMetaJson(out)).status).toBe('complete');
  }, 180_000);
});

describe('run --node <node2>', () => {
  it('runs the server and the client trial on that Node: the records and the server say its version', async () => {
    const result = await callMain(['run', '--node', node2.path, '--duration', '30ms', '--warmup', '10ms', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`node: ${node2.path} (${v2}, `);
    expect(result.stderr).toMatch(new RegExp(`echo server pid \\d+: .* \\(node ${v2.replace(/\./g, '\\.')}\\)`));
    const records = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(records.map((r) => [r.transport, r.node_version, r.status])).toEqual([['tcp', v2, 'ok'], ['uds', v2, 'ok']]);
  });
});
