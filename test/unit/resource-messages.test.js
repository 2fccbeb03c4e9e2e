import { describe, expect, it } from 'vitest';
import { MIN_ADDRESS_SPACE_KIB, checkAddressSpace, describeResourceCrash, describeResourceError, lastMeaningfulLine, readLimits } from '../../lib/core/resources.js';
import { errorRecord } from '../../lib/trial/record.js';

const PROC_LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            64                   1048576              files
Max address space         2048000000           unlimited            bytes
`;
const LIMITS = readLimits(PROC_LIMITS);

/** A native frame as V8 prints it under a fatal error. */
const FRAME = /0x[0-9a-f]+ \[/;

describe('resource limits and what running out of them says', () => {
  it('reads the soft limits of /proc/self/limits (address space in KiB, as ulimit -v gives it)', () => {
    expect(LIMITS).toEqual({ addressSpaceKiB: 2_000_000, openFiles: 64 });
    expect(readLimits(PROC_LIMITS.replace('2048000000 ', 'unlimited  '))).toEqual({ addressSpaceKiB: null, openFiles: 64 });
    expect(readLimits(null)).toEqual({ addressSpaceKiB: null, openFiles: null });
  });

  it('refuses an address-space limit below the measured minimum, naming ulimit -v', () => {
    expect(checkAddressSpace({ addressSpaceKiB: null, openFiles: null })).toBeNull();
    expect(checkAddressSpace({ addressSpaceKiB: MIN_ADDRESS_SPACE_KIB, openFiles: null })).toBeNull();
    expect(checkAddressSpace({ addressSpaceKiB: 1_500_000, openFiles: null })).toMatch(/^the address-space limit \(ulimit -v 1500000 KiB\) is below 2000000 KiB, .*; raise it: ulimit -v 2000000, or unlimited$/);
  });

  it('a failed buffer allocation is out of memory, with the address-space limit that caused it', () => {
    let error;
    try {
      new ArrayBuffer(2 ** 45); // 32 TiB: V8 cannot allocate it
    } catch (e) {
      error = e;
    }
    expect(describeResourceError(error, LIMITS)).toBe('out of memory: Array buffer allocation failed (the address-space limit is ulimit -v 2000000 KiB: raise it, e.g. ulimit -v unlimited)');
    expect(describeResourceError(error, { addressSpaceKiB: null, openFiles: null })).toBe('out of memory: Array buffer allocation failed');
  });

  it('EMFILE names ulimit -n and its soft limit; other errors are left alone', () => {
    const emfile = Object.assign(new Error("EMFILE: too many open files, open '/x/y.js'"), { code: 'EMFILE', syscall: 'open' });
    expect(describeResourceError(emfile, LIMITS)).toBe("EMFILE: too many open files, open '/x/y.js' (the open-file limit is ulimit -n 64: raise it, e.g. ulimit -n 4096)");
    expect(describeResourceError(new Error('tcp 127.0.0.1:5: EMFILE\n  resume with: x'), LIMITS)).toBe('tcp 127.0.0.1:5: EMFILE (too many open files: the open-file limit is ulimit -n 64: raise it, e.g. ulimit -n 4096)\n  resume with: x');
    expect(describeResourceError(new Error('cannot connect: ECONNREFUSED'), LIMITS)).toBeNull();
    expect(describeResourceError('EMFILE', LIMITS)).toBeNull();
  });

  it('a trial row says EMFILE in one line', () => {
    const record = errorRecord({ workload: 'echo', transport: 'tcp' }, Object.assign(new Error('connect EMFILE 127.0.0.1:9'), { code: 'EMFILE' }));
    expect(record.error).toMatch(/^connect EMFILE 127\.0\.0\.1:9 \(too many open files: the open-file limit is ulimit -n \d+: raise it, e\.g\. ulimit -n \d+\)$/);
  });

  it("a child's V8 out-of-memory abort becomes one line naming ulimit -v, without its native stack", () => {
    const node20 = '\n#\n# Fatal process OOM in Failed to reserve virtual memory for CodeRange\n#\n\n';
    const node24 = '\n\n<--- Last few GCs --->\n\n[123:0x2b0c000]  210 ms: Scavenge 7.6 (9.7) -> 6.4 (10.0) MB\n\nFATAL ERROR: Committing semi space failed. Allocation failed - JavaScript heap out of memory\n----- Native stack trace -----\n\n 1: 0xb8c3f1 node::OOMErrorHandler [node]\n11: 0x195e376  [/usr/bin/node]\n';
    const zone = '\n#\n# Fatal error in , line 0\n# Fatal process out of memory: Zone\n#\n#\n#\n#FailureMessage Object: 0x7fd10a531a40\n----- Native stack trace -----\n\n 1: 0xd32b41  [node]\n';
    expect(describeResourceCrash(node20, 'the trial process', LIMITS)).toBe('out of memory in the trial process (V8: Failed to reserve virtual memory for CodeRange); the address-space limit is ulimit -v 2000000 KiB: raise it, e.g. ulimit -v unlimited');
    expect(describeResourceCrash(node24, 'the trial process', LIMITS)).toBe('out of memory in the trial process (V8: Committing semi space failed. Allocation failed - JavaScript heap out of memory); the address-space limit is ulimit -v 2000000 KiB: raise it, e.g. ulimit -v unlimited');
    expect(describeResourceCrash(zone, 'the echo server process', { addressSpaceKiB: null, openFiles: null })).toBe('out of memory in the echo server process (V8: Zone)');
    expect(describeResourceCrash('Error: x\n    at y\n', 'the trial process', LIMITS)).toBeNull();
  });

  it("the last word of a crashed child is its error or V8's reason, never a stack frame or Node's banner", () => {
    expect(lastMeaningfulLine('file:///x.js:3\nthrow new Error(1)\n^\n\nError: boom\n    at file:///x.js:3:7\n\nNode.js v20.20.2\n')).toBe('Error: boom');
    const check = lastMeaningfulLine('\n#\n# Fatal error in ../deps/v8/src/x.cc, line 12\n# Check failed: ok.\n#\n#FailureMessage Object: 0x7f\n----- Native stack trace -----\n\n 1: 0xd32b41  [node]\n11: 0x195e376 [/usr/bin/node]\n');
    expect(check).toBe('Check failed: ok.');
    expect(check).not.toMatch(FRAME);
    expect(lastMeaningfulLine('udsvstcp: listen EADDRINUSE\n')).toBe('udsvstcp: listen EADDRINUSE');
    expect(lastMeaningfulLine('')).toBe('');
  });
});
