/**
 * A server stall inside what a trial measures: the fixture's server stopped
 * (SIGSTOP) for `stallMs`, once, when it has echoed `afterPackets` more
 * packets of `size` bytes than when this was called, however slowly a loaded
 * machine starts the trial's lane. The server's own byte count, polled every
 * 5 ms, picks the moment. (test/integration/open-loop.test.js,
 * test/bench/stall.js)
 * @param {import('../../lib/fixture/fixture.js').Fixture} fixture
 * @param {{ afterPackets: number, stallMs: number, size?: number }} when
 * @returns {Promise<() => number>} stop polling; how many stalls there were (0 or 1)
 */
export async function stallOnce(fixture, { afterPackets, stallMs, size = 64 }) {
  const start = (await fixture.snapshot()).bytes_in;
  let stalls = 0;
  const poll = setInterval(async () => {
    if (stalls > 0) return;
    const echoed = (await fixture.snapshot()).bytes_in - start;
    if (stalls > 0 || echoed < afterPackets * size) return; // another poll stopped it while this one asked
    stalls++;
    process.kill(fixture.pid, 'SIGSTOP');
    setTimeout(() => process.kill(fixture.pid, 'SIGCONT'), stallMs);
  }, 5);
  return () => {
    clearInterval(poll);
    return stalls;
  };
}
