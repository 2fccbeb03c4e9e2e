/**
 * The resume command, built in one place (lib/core/shell.js) for the
 * sweep's Ctrl-C and failure hints, `report`, summary.md and report.html:
 * a sweep run with --node is resumed with --node (its executables are never
 * read back from meta.json), so the command names them, names on PATH as
 * given and paths absolute. From hand-written meta.json, in process.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findProgram } from '../../lib/core/programs.js';
import { resumeCommand } from '../../lib/core/shell.js';
import { resumeNodesOf } from '../../lib/results/meta.js';
import { buildFindings } from '../../lib/report/findings.js';
import { toMarkdown, toReportText } from '../../lib/report/report-text.js';
import { toHtml } from '../../lib/report/html.js';
import { ENVIRONMENT, okRow } from '../helpers/results-fixture.js';

const N26 = '/tmp/n26/node_modules/.bin/node';
const node = (/** @type {string} */ version, /** @type {string} */ given, /** @type {string} */ path) => ({ version, v8: '1', libuv: '1', path, given });

describe('resumeCommand', () => {
  it('names no Node for a sweep of the running Node', () => {
    expect(resumeCommand('r1')).toBe('npx udsvstcp sweep --resume r1');
    expect(resumeCommand('r1', [])).toBe('npx udsvstcp sweep --resume r1');
  });

  it('names the --node list: names on PATH as given, paths absolute, the whole quoted for the shell', () => {
    expect(resumeCommand('r1', [node('v20.20.2', 'node', '/usr/bin/node'), node('v26.10.0', N26, N26)])).toBe(`npx udsvstcp sweep --resume r1 --node node,${N26}`);
    expect(resumeCommand('r1', [node('v20.20.2', './n20/bin/node', '/home/me/n20/bin/node'), node('v26.10.0', 'node26', '/opt/bin/node26')])).toBe('npx udsvstcp sweep --resume r1 --node /home/me/n20/bin/node,node26');
    expect(resumeCommand("it's", [node('v20.20.2', '/my nodes/node', '/my nodes/node')])).toBe(`npx udsvstcp sweep --resume 'it'\\''s' --node '/my nodes/node'`);
  });
});

describe('resumeNodesOf (meta.json, for the printed command only)', () => {
  const nodes = [node('v20.20.2', 'node', '/usr/bin/node'), node('v26.10.0', N26, N26)];

  it('names the last session\'s executables where the sweep was given --node, the baseline first', () => {
    const resumedWith = [node('v20.20.2', '/opt/n20/node', '/opt/n20/node'), node('v26.10.0', 'node26', '/opt/bin/node26')];
    expect(resumeNodesOf({ spec: { node: ['node', N26] }, nodes, sessions: [{ nodes }] })).toEqual(nodes);
    expect(resumeNodesOf({ spec: { node: ['node', N26] }, nodes, sessions: [{ nodes }, { nodes: resumedWith }, { kind: 'resume' }] })).toEqual(resumedWith);
  });

  it('names none for a sweep of the running Node', () => {
    const onPath = realpathSync(/** @type {string} */ (findProgram('node')));
    const one = [node('v20.20.2', onPath, onPath)];
    expect(resumeNodesOf({ spec: { node: null }, nodes: one, sessions: [{ nodes: one }] })).toBeNull();
    expect(resumeNodesOf(null)).toBeNull();
    expect(resumeNodesOf({ status: 'interrupted' })).toBeNull();
  });

  it('names the Node a sweep without --node ran on where it is not the one on PATH, which npx would run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'udsvstcp-node-'));
    try {
      const other = join(dir, 'node');
      writeFileSync(other, '', { mode: 0o755 });
      const one = [node('v26.10.0', other, other)];
      expect(resumeCommand('r1', resumeNodesOf({ spec: { node: null }, nodes: one, sessions: [{ nodes: one }] }))).toBe(`npx udsvstcp sweep --resume r1 --node ${other}`);
      const gone = [node('v26.10.0', join(dir, 'gone'), join(dir, 'gone'))]; // not on this machine (a copied directory): none
      expect(resumeNodesOf({ spec: { node: null }, nodes: gone, sessions: [{ nodes: gone }] })).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the resume command in the report', () => {
  const trials = ['v20.20.2', 'v26.10.0'].flatMap((v) => [okRow(0, 'tcp', 64, 1, 1000), okRow(0, 'uds', 64, 1, 1200)].map((r) => ({ ...r, node_version: v })));
  const nodes = [node('v20.20.2', 'node', '/usr/bin/node'), node('v26.10.0', N26, N26)];
  const meta = { status: 'interrupted', trials_planned: 8, environment: ENVIRONMENT, spec: { pin: 'none', node: ['node', N26] }, nodes, sessions: [{ nodes }] };
  const command = `npx udsvstcp sweep --resume results/r1 --node node,${N26}`;

  it('is the one that works: with the --node list, in report, summary.md and report.html alike', () => {
    const findings = buildFindings({ trials, meta, dir: 'results/r1' });
    expect(findings.warnings).toContain(`the sweep was interrupted: 4 of 8 trial rows recorded; complete it with: ${command}`);
    expect(toReportText(findings)).toContain(`complete it with: ${command}\n`);
    expect(toMarkdown(findings)).toContain(`complete it with: ${command.replace(/_/g, '\\_')}\n`); // Markdown's escape, shown as _
    expect(toHtml(findings, [])).toContain(`complete it with: ${command}</li>`);
    const unfinished = buildFindings({ trials, meta: { ...meta, status: 'running' }, dir: 'results/r1' });
    expect(unfinished.warnings.join('\n')).toContain(`complete it with: ${command}`);
  });

  it('labels the sections of a --node sweep stopped before its second version ran, and says that version has no rows', () => {
    const first = trials.filter((r) => r.node_version === 'v20.20.2');
    const findings = buildFindings({ trials: first, meta: { ...meta, status: 'running' }, dir: 'results/r1' });
    expect(findings.sections.map((s) => s.node)).toEqual(['v20.20.2']);
    expect(findings.warnings).toContain('no trial rows of Node v26.10.0, which the sweep lists: its versions are not compared');
    expect(toReportText(findings)).toMatch(/v20\.20\.2/);
  });

  it('says one run per group "so far" of a sweep that planned more and stopped, and asks for --runs only of one that planned one', () => {
    const once = trials.filter((r) => r.node_version === 'v20.20.2');
    const single = (/** @type {Record<string, any>} */ m) => buildFindings({ trials: once, meta: { ...meta, nodes: [nodes[0]], spec: { pin: 'none', node: null, ...m.spec }, status: m.status }, dir: 'results/r1' }).warnings.filter((w) => w.startsWith('one run per group'));
    expect(single({ status: 'interrupted', spec: { runs: 20 } })).toEqual(['one run per group so far: no confidence intervals and no verdicts on significance']);
    expect(single({ status: 'complete', spec: { runs: 1 } })).toEqual(['one run per group: no confidence intervals and no verdicts on significance; run 2 or more (--runs), 10 or more for firm ones']);
  });

  it('counts the planned rows under every Node version when meta.json of a killed sweep has no trials_planned', () => {
    const killed = { ...meta, status: 'running', trials_planned: undefined, spec: { ...meta.spec, sizes: [64], depths: [1], transports: ['tcp', 'uds'], runs: 2 } };
    const findings = buildFindings({ trials, meta: killed, dir: 'results/r1' });
    expect(findings.trials).toMatchObject({ recorded: 4, planned: 8 });
    expect(findings.warnings.join('\n')).toContain('4 of 8 trial rows recorded');
    const one = buildFindings({ trials: trials.slice(0, 2), meta: { ...killed, spec: { ...killed.spec, node: null } }, dir: 'results/r1' });
    expect(one.trials).toMatchObject({ recorded: 2, planned: 4 });
  });

  it('without --node, as before', () => {
    const onPath = realpathSync(/** @type {string} */ (findProgram('node')));
    const one = [node('v20.20.2', onPath, onPath)]; // the Node npx runs
    const findings = buildFindings({ trials: trials.filter((r) => r.node_version === 'v20.20.2'), meta: { ...meta, spec: { pin: 'none', node: null }, nodes: one, sessions: [{ nodes: one }] }, dir: 'results/r1' });
    expect(findings.warnings.join('\n')).toContain('complete it with: npx udsvstcp sweep --resume results/r1\n'.trimEnd());
    expect(findings.warnings.join('\n')).not.toContain('--node');
  });
});
