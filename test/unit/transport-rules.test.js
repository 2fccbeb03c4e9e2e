import { describe, expect, it } from 'vitest';
import { UsageError } from '../../lib/core/errors.js';
import { checkWorkloadTransports, toTransportList } from '../../lib/options/rules.js';
import { WORKLOADS } from '../../lib/workloads/index.js';
import { BASELINE, HEADLINE, PAIR, TRANSPORTS, TRANSPORT_DECLARATIONS, labelOf, othersOf, ratiosOf, ratioTransport } from '../../lib/transports/index.js';

describe('transport lists', () => {
  it('takes any list of known transports with tcp among them, in the order given; both is tcp,uds', () => {
    expect(toTransportList('tcp,uds,uds-abstract', '--transport', 'linux')).toEqual(['tcp', 'uds', 'uds-abstract']);
    expect(toTransportList(['uds-abstract', 'tcp'], 'x.json "transports"', 'linux')).toEqual(['uds-abstract', 'tcp']);
    expect(toTransportList('both', '--transport', 'linux')).toEqual(['tcp', 'uds']);
  });

  it('takes one transport alone, tcp or any other: measured with nothing compared', () => {
    for (const t of ['tcp', 'uds', 'worker']) expect(toTransportList(t, '--transports', 'linux')).toEqual([t]);
  });

  it('refuses a name given twice, naming the flag or key and the name, instead of dropping it', () => {
    expect(() => toTransportList('uds,uds,tcp', '--transport', 'linux')).toThrow(/^--transport names uds more than once: give each transport once \(of tcp, uds, uds-abstract, ipc-json, ipc-advanced, worker\); got "uds,uds,tcp"$/);
    expect(() => toTransportList(['tcp', 'tcp'], 'x.json "transports"', 'linux')).toThrow(/^x\.json "transports" names tcp more than once/);
    expect(() => toTransportList('tcp,tcp', '--transports', 'linux')).toThrow(UsageError);
  });

  it('refuses two or more transports without tcp: TCP is the baseline every ratio is against', () => {
    expect(() => toTransportList('uds,worker', '--transports', 'linux')).toThrow(/^--transports uds,worker has no tcp: TCP is the baseline every ratio is against, so a list of two or more must include it \(e\.g\. tcp,uds,worker\); or give one transport to measure it alone$/);
    expect(() => toTransportList(['uds', 'uds-abstract'], 'x.json "transports"', 'linux')).toThrow(/^x\.json "transports" uds,uds-abstract has no tcp/);
  });

  it('refuses unknown names, naming the flag and the transports it takes', () => {
    expect(() => toTransportList('tcp,udp', '--transport', 'linux')).toThrow(/^--transport must be one of tcp, uds, uds-abstract/);
    expect(() => toTransportList('', '--transports', 'linux')).toThrow(/^--transports must be one of/);
    expect(() => toTransportList([], 'x.json "transports"', 'linux')).toThrow(/^x\.json "transports" must be one of/);
  });

  it('refuses uds-abstract off Linux, saying why', () => {
    expect(() => toTransportList('tcp,uds-abstract', '--transport', 'darwin')).toThrow(/^--transport uds-abstract needs linux; this system is darwin/);
    expect(() => toTransportList('uds-abstract', '--transport', 'win32')).toThrow(UsageError);
  });

  it('refuses a transport the workload cannot measure: nginx cannot forward to an abstract socket', () => {
    expect(() => checkWorkloadTransports(WORKLOADS.proxy, ['tcp', 'uds-abstract'], '--transport')).toThrow(/^--transport uds-abstract: the proxy workload needs .*it takes tcp, uds$/);
    for (const name of ['echo', 'stream', 'connect', 'http']) expect(() => checkWorkloadTransports(WORKLOADS[name], ['tcp', 'uds', 'uds-abstract'], '--transport')).not.toThrow();
  });
});

describe('ratio cells', () => {
  it('are every transport but TCP against TCP, UDS first, and read back', () => {
    expect(ratiosOf(['uds-abstract', 'tcp', 'uds'])).toEqual(['uds/tcp', 'uds-abstract/tcp']);
    expect(ratiosOf(['uds', 'uds-abstract'])).toEqual([]);
    expect(ratioTransport('uds-abstract/tcp')).toBe('uds-abstract');
    expect(ratioTransport('tcp')).toBeNull();
    expect(labelOf('uds-abstract/tcp')).toBe('UDS abstract/TCP');
    expect(labelOf('uds/tcp')).toBe('UDS/TCP');
  });
});

describe('the baseline and the headline', () => {
  it('are TCP and the one transport declared headline, UDS; the others are the rest, in the order given', () => {
    expect(TRANSPORTS.filter((t) => TRANSPORT_DECLARATIONS[t].headline)).toEqual([HEADLINE]);
    expect([BASELINE, HEADLINE, PAIR]).toEqual(['tcp', 'uds', ['tcp', 'uds']]);
    expect(othersOf(['worker', 'tcp', 'uds-abstract', 'uds'])).toEqual(['worker', 'uds-abstract']);
    expect(ratioTransport('tcp/tcp')).toBe('tcp');
    expect(ratioTransport('/tcp')).toBeNull();
  });
});
