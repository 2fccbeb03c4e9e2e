import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE_BACKLOG, backlogWarning, listenBacklog } from '../../lib/core/backlog.js';
import { readWholeNumber } from '../../lib/core/environment.js';
import { somaxconnWarning } from '../../lib/report/machine.js';
import { connectionsAt, WORKLOADS } from '../../lib/workloads/index.js';
import { useTempDir } from '../helpers/temp.js';

const tmp = useTempDir();

/**
 * A report section (figures do not matter here).
 * @param {string} workload
 * @param {number} depth
 */
const section = (workload, depth) => /** @type {import('../../lib/report/findings.js').Section} */ (/** @type {unknown} */ ({ workload, node: null, depth, sizes: [] }));

describe('the listen backlog', () => {
  it('follows the connections a trial opens at once to one listener, never below Node\'s 511', () => {
    expect(NODE_BACKLOG).toBe(511);
    expect(listenBacklog(undefined)).toBe(511);
    expect(listenBacklog(64)).toBe(511);
    expect(listenBacklog(1024)).toBe(1024);
    // http and proxy open --connections at once, connect --depth; echo and stream one per transport, whatever the depth
    expect(connectionsAt(WORKLOADS.proxy, 1024)).toBe(1024);
    expect(connectionsAt(WORKLOADS.http, 1024)).toBe(1024);
    expect(connectionsAt(WORKLOADS.connect, 64)).toBe(64);
    expect(connectionsAt(WORKLOADS.echo, 65536)).toBe(1);
    expect(connectionsAt(WORKLOADS.stream, 1)).toBe(1);
  });

  it('reads net.core.somaxconn (readWholeNumber) as a number, null when unreadable or not a number', () => {
    const file = join(tmp.dir, 'somaxconn');
    writeFileSync(file, '4096\n');
    expect(readWholeNumber(file)).toBe(4096);
    writeFileSync(file, 'many\n');
    expect(readWholeNumber(file)).toBeNull();
    expect(readWholeNumber(join(tmp.dir, 'absent'))).toBeNull();
  });

  it('warns when somaxconn caps the backlog below the connections a trial opens, naming the flag, the cause and the fix', () => {
    expect(backlogWarning({ connections: 1024, somaxconn: 512, flag: '--connections 1024' })).toBe(
      'net.core.somaxconn 512 caps the server\'s listen backlog below the 1024 connections a trial opens at once (--connections 1024): past 512 waiting, a UDS connect fails at once (EAGAIN) where TCP\'s waits for a SYN retry; raise it (sudo sysctl -w net.core.somaxconn=1024) to measure the transports, not the queue (docs/regimes.md)');
    // a cap below Node's 511 matters only where a trial opens more than it
    expect(backlogWarning({ connections: 10, somaxconn: 128, flag: '--connections 10' })).toBeNull();
    expect(backlogWarning({ connections: 1024, somaxconn: 1024, flag: '--connections 1024' })).toBeNull();
    expect(backlogWarning({ connections: 1024, somaxconn: null, flag: '--connections 1024' })).toBeNull();
  });

  it('the report warns from meta.json\'s sysctl (or its environment\'s), for the group with the most connections', () => {
    const sections = [section('proxy', 10), section('proxy', 1024), section('proxy', 400)];
    expect(somaxconnWarning(sections, { machine: { sysctl: { 'net.core.somaxconn': 512 } } })).toMatch(/^net\.core\.somaxconn 512 caps .* the 1024 connections a trial opens at once \(connections 1024\):/);
    expect(somaxconnWarning(sections, { machine: null, environment: { net: { somaxconn: '256' } } })).toMatch(/^net\.core\.somaxconn 256 caps/);
    expect(somaxconnWarning(sections, { machine: { sysctl: { 'net.core.somaxconn': 4096 } } })).toBeNull();
    expect(somaxconnWarning([section('echo', 65536)], { machine: { sysctl: { 'net.core.somaxconn': 128 } } })).toBeNull();
    expect(somaxconnWarning(sections, null)).toBeNull();
  });
});
