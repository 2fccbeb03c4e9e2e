/**
 * The open-loop driver on a scripted clock: exact intended times on an
 * absolute schedule, catch-up batches that stamp each packet with its own
 * intended time, drops at the in-flight cap, and a segment that ends only
 * when everything sent is back. The real pacer on real sockets:
 * test/integration/open-loop.test.js.
 */
import { createHistogram } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { createOpenDriver, createSchedule } from '../../lib/client/open-driver.js';
import { keptSegment, limitOf } from '../../lib/workloads/rate.js';

/** A driver on a clock the test sets, whose passes run when the test says. */
function scripted({ rate = 1000, cap = 100 } = {}) {
  let now = 100;
  /** @type {(() => void)[]} */
  const passes = [];
  /** @type {{ index: number, at: number }[]} */
  const sent = [];
  const histograms = { service: createHistogram(), lag: createHistogram() };
  const driver = createOpenDriver({
    rate, cap, timeoutMs: 60_000, what: 'test', histograms,
    clock: () => now, defer: (pass) => passes.push(pass), send: (index) => sent.push({ index, at: now }),
  });
  return {
    driver, sent, histograms,
    /** Set the clock and run the pending pass. @param {number} t */
    passAt(t) {
      now = t;
      const pass = passes.shift();
      expect(pass, 'a pass is pending').toBeDefined();
      pass?.();
    },
    /** The next packet's echo arrives at t. @param {number} t */
    echoAt(t) {
      now = t;
      driver.heard(t);
      driver.arrived(t);
      driver.settle(t);
    },
  };
}

describe('open-loop schedule', () => {
  it('constant: packet j is due j / rate after the start', () => {
    const at = createSchedule({ rate: 4000 });
    expect([0, 1, 2, 1000].map(at)).toEqual([0, 0.25, 0.5, 250]);
  });

  it('poisson: seeded, the k-th segment at one rate has the same times on every transport, segments differ, mean gap 1 / rate', () => {
    const a = createSchedule({ rate: 1000, arrivals: 'poisson', seed: 7, segment: 2 });
    const b = createSchedule({ rate: 1000, arrivals: 'poisson', seed: 7, segment: 2 });
    expect(a(5000)).toBe(b(5000));
    expect(a(3)).not.toBe(createSchedule({ rate: 1000, arrivals: 'poisson', seed: 8, segment: 2 })(3));
    expect(a(3)).not.toBe(createSchedule({ rate: 1000, arrivals: 'poisson', seed: 7, segment: 3 })(3));
    expect(a(20_000) / 20_000).toBeGreaterThan(0.97);
    expect(a(20_000) / 20_000).toBeLessThan(1.03);
  });
});

describe('open-loop driver on a scripted clock', () => {
  it('sends each packet when due, a late pass sends every packet due at once, each timed from its own intended time', async () => {
    const s = scripted();
    const recordTo = createHistogram();
    const segment = s.driver.block(5, recordTo); // starts at 100: packet 0 due at once
    expect(s.sent).toEqual([{ index: 0, at: 100 }]);
    s.passAt(100.5); // nothing due yet (packet 1 at 101)
    expect(s.sent).toHaveLength(1);
    s.passAt(103.5); // three due: 101, 102, 103, sent in one batch, late by 2.5, 1.5 and 0.5 ms
    expect(s.sent.map((p) => p.index)).toEqual([0, 1, 2, 3]);
    expect([s.histograms.lag.min, s.histograms.lag.max].map((v) => Math.round(v / 1e5) / 10)).toEqual([0, 2.5]); // packet 0 on time
    // packet 0 back at 103.6 (3.6 ms after it was due and sent); packet 1 at 104: 3 ms after it was due, though sent 0.5 ms before
    s.echoAt(103.6);
    s.echoAt(104);
    const ms = (/** @type {number} */ v) => Math.round(v / 1e5) / 10;
    expect([ms(recordTo.min), ms(recordTo.max)]).toEqual([3, 3.6]); // response times
    expect([ms(s.histograms.service.min), ms(s.histograms.service.max)]).toEqual([0.5, 3.6]); // service times
    s.passAt(104); // packet 4 due at 104
    s.echoAt(104.1);
    s.echoAt(104.2);
    let done = false;
    void segment.then(() => { done = true; });
    await Promise.resolve();
    expect(done, 'a packet is still in flight').toBe(false);
    s.echoAt(104.3);
    const t = await segment;
    expect(t).toMatchObject({ start: 100, end: 104.3, scheduled: 5, sent: 5, dropped: 0, spanMs: 5 });
    expect(t.sendSpanMs).toBeCloseTo(5, 9); // last sent on time: the schedule's length
    // the second half's packets (3 and 4, due 103 and 104) answered 1.2 and 0.3 ms after they were due (median 0.3,
    // the lower of two), the first half's (0, 1, 2) 3.6, 3 and 2.1 ms (median 3): no backlog grew, a negative growth
    // over the half of the schedule between the halves' middles
    expect(t.growthMs).toBeCloseTo((0.3 - 3) / 0.5, 2);
    expect(recordTo.count).toBe(5);
    s.driver.close();
  });

  it('reports its backlog\'s growth: answers later and later through the segment, a segment that did not keep its rate', async () => {
    const s = scripted();
    const segment = s.driver.block(8, createHistogram());
    // packet j sent when due (100 + j), answered 1 + 0.1·j ms after: a server falling behind
    for (let k = 1; k < 8; k++) {
      s.passAt(100 + k);
      s.echoAt(100 + k + 0.1 * (k - 1));
    }
    s.echoAt(108 + 0.7);
    const t = await segment;
    // halves of the 8 ms schedule: packets 0-3 (1 to 1.3 ms) against 4-7 (1.4 to 1.7): medians 1.1 and 1.5
    expect(t.growthMs).toBeCloseTo((1.5 - 1.1) / 0.5, 2);
    expect(keptSegment({ scheduled: 8, sent: t.sent, dropped: t.dropped, spanMs: t.spanMs, growthMs: t.growthMs })).toBe(false);
    s.driver.close();
  });

  it('a pause of the machine at a segment\'s end (15 ms of a 100 ms segment) is no backlog: the segment kept its rate', async () => {
    const s = scripted({ rate: 1000, cap: 200 });
    const segment = s.driver.block(100, createHistogram());
    // packets 0-84 sent when due and answered 0.1 ms later; then the machine pauses from 184.5 to 199.6: packets
    // 85-99 go out late at 199.6 and are answered at 199.7, 0.7 to 14.7 ms after they were due
    for (let j = 0; j < 85; j++) {
      if (j > 0) s.passAt(100 + j);
      s.echoAt(100 + j + 0.1);
    }
    s.passAt(199.6);
    expect(s.sent).toHaveLength(100);
    for (let j = 85; j < 100; j++) s.echoAt(199.7);
    const t = await segment;
    // the second half's median is still an undelayed packet's: 0.1 ms, as the first half's
    expect(Math.abs(t.growthMs)).toBeLessThan(0.01);
    expect(keptSegment({ scheduled: 100, sent: t.sent, dropped: t.dropped, spanMs: t.spanMs, growthMs: t.growthMs })).toBe(true);
    s.driver.close();
  });

  it('never re-anchors: after a stall, the schedule goes on from the segment start, not from now', () => {
    const s = scripted();
    void s.driver.block(100, createHistogram());
    s.passAt(150); // 50 ms late: packets 1..50 are due
    expect(s.sent).toHaveLength(51);
    expect(s.sent.at(-1)).toEqual({ index: 50, at: 150 });
    s.passAt(150.9); // the next is due at 151, not 151 + a gap after the stall
    expect(s.sent).toHaveLength(51);
    s.passAt(151);
    expect(s.sent).toHaveLength(52);
    s.driver.close();
  });

  it('drops a packet due while the cap is in flight, counts it, and sends no payload index for it', async () => {
    const s = scripted({ cap: 2 });
    const segment = s.driver.block(4, createHistogram());
    s.passAt(103); // packets 1..3 due; 2 in flight after packet 1: 2 and 3 dropped
    expect(s.sent.map((p) => p.index)).toEqual([0, 1]);
    s.echoAt(103.1);
    s.echoAt(103.2);
    const t = await segment;
    expect(t).toMatchObject({ scheduled: 4, sent: 2, dropped: 2 });
    void s.driver.block(1, createHistogram());
    expect(s.sent.at(-1)?.index).toBe(2); // the next packet sent is the third packet, whatever was dropped
    s.driver.close();
  });
});

describe('open-loop driver, answers out of order (HTTP over several connections)', () => {
  it('complete() takes each answer with its own due and send times; a stall records each unanswered one from its due time', async () => {
    let now = 100;
    /** @type {(() => void)[]} */
    const passes = [];
    /** @type {Map<number, number>} index → due, of the requests in flight */
    const dues = new Map();
    const histograms = { service: createHistogram(), lag: createHistogram() };
    const driver = createOpenDriver({
      rate: 1000, cap: 100, timeoutMs: 20, what: 'test', histograms, clock: () => now, defer: (pass) => passes.push(pass),
      send: (index, due) => dues.set(index, due), unanswered: () => [...dues.values()],
    });
    const ms = (/** @type {number} */ v) => Math.round(v / 1e5) / 10;
    const recordTo = createHistogram();
    const segment = driver.block(3, recordTo);
    now = 102;
    passes.shift()?.(); // requests 1 and 2, due at 101 and 102, sent now
    expect([...dues]).toEqual([[0, 100], [1, 101], [2, 102]]);
    // request 2 answers first, 0.5 ms after it was due and sent; then request 0, 3 ms after
    for (const [index, at, sentAt] of [[2, 102.5, 102], [0, 103, 100]]) {
      now = at;
      driver.heard(now);
      driver.complete(now, /** @type {number} */ (dues.get(index)), sentAt);
      dues.delete(index);
    }
    expect([recordTo.count, ms(recordTo.min), ms(recordTo.max)]).toEqual([2, 0.5, 3]);
    // request 1 never answers: the watchdog fails the segment and records it from when it was due, a lower bound
    now = 1103;
    await expect(segment).rejects.toMatchObject({ code: 'ERR_TIMEOUT', incomplete: 1 });
    expect(recordTo.count).toBe(3);
    expect(ms(recordTo.max)).toBeGreaterThanOrEqual(1002); // from its send (102) it would be 1001; HDR's buckets hold 3 digits
    expect(ms(recordTo.max)).toBeLessThan(1003);
    driver.close();
  });
});

describe('whether a lane kept its rate', () => {
  it('a segment keeps its rate when it drops nothing and completes 99 % of what it offered, its backlog\'s growth counted', () => {
    expect(keptSegment({ scheduled: 100, sent: 100, dropped: 0, spanMs: 100, growthMs: 0 })).toBe(true);
    // answers 1.5 ms later at the end than at the start over 100 ms: 985/s of 1000/s
    expect(keptSegment({ scheduled: 100, sent: 100, dropped: 0, spanMs: 100, growthMs: 1.5 })).toBe(false);
    expect(keptSegment({ scheduled: 100, sent: 100, dropped: 0, spanMs: 100, growthMs: 0.9 })).toBe(true);
    // a slow answer at the start, none at the end: no growth, kept (the latency itself is no backlog)
    expect(keptSegment({ scheduled: 100, sent: 100, dropped: 0, spanMs: 100, growthMs: -20 })).toBe(true);
    expect(keptSegment({ scheduled: 100, sent: 99, dropped: 1, spanMs: 100, growthMs: 0 })).toBe(false);
    // a poisson segment whose schedule offered 930 in its 1000 ms: judged against what it offered, not --rate
    expect(keptSegment({ scheduled: 930, sent: 930, dropped: 0, spanMs: 1000, growthMs: 2 })).toBe(true);
  });

  it('names the generator when its median lag is over the bound, the server when under 80 % of its segments kept the rate', () => {
    expect(limitOf({ target: 1000, segments: 10, kept: 10, dropped: 0, lagP50Us: 10 })).toEqual({ limit: 'none', reason: '' });
    // one segment hit by a pause of the machine: still kept, and said
    expect(limitOf({ target: 1000, segments: 10, kept: 9, dropped: 3, lagP50Us: 10 })).toEqual({ limit: 'none', reason: 'kept; 1 of 10 segments missed the rate (dropped a packet at the in-flight cap, 3 in all, or completed under 99 % of it)' });
    expect(limitOf({ target: 1000, segments: 10, kept: 7, dropped: 0, lagP50Us: 10 }).limit).toBe('server');
    expect(limitOf({ target: 1000, segments: 10, kept: 0, dropped: 0, lagP50Us: 900 })).toEqual({ limit: 'generator', reason: "the pacer's median schedule lag 900.0 µs is over 100 µs" });
    // at 64 000/s a tenth of the gap (1.6 µs) is under 50 µs: the bound is 50 µs
    expect(limitOf({ target: 64_000, segments: 10, kept: 10, dropped: 0, lagP50Us: 49 }).limit).toBe('none');
  });
});
