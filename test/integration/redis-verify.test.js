/**
 * The redis workload checks every reply: against a real server on loopback
 * that speaks just enough RESP (SET, GET) and answers one GET with a byte
 * changed, the trial fails naming the key and the byte; against one that
 * stops answering, it fails within --timeout instead of hanging. So does
 * redis-rate, in open loop (its GETs of the 16 keys SET first, in turn; a
 * silence found by the open-loop driver's watchdog, with no timer per
 * command). With --batch, a byte changed inside a pipeline fails the trial
 * the same way, and the commands of a pipeline reach the server at once.
 * A redis-rate lane whose server never answers QUIT closes within --timeout.
 * None needs redis-server.
 */
import net from 'node:net';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedisLoad } from '../../lib/client/redis-load.js';
import { runTrial } from '../../lib/trial/trial.js';

/** @type {net.Server[]} */
const servers = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
});

/**
 * A RESP server of SET and GET on 127.0.0.1: the `badGet`-th GET (from 1) comes back with byte `byte` flipped; from
 * the `silentAfter`-th command on it reads and never answers. `stats.burst`: the most commands one read of a
 * connection held whole.
 * @param {{ badGet?: number, byte?: number, silentAfter?: number, mute?: string[], stats?: { burst: number } }} options mute: commands read and never answered
 */
async function respServer({ badGet = Infinity, byte = 0, silentAfter = Infinity, mute = [], stats = { burst: 0 } }) {
  /** @type {Map<string, Buffer>} */
  const store = new Map();
  let gets = 0;
  let commands = 0;
  const server = net.createServer((socket) => {
    let pending = Buffer.alloc(0);
    socket.on('error', () => {});
    socket.on('data', (data) => {
      pending = Buffer.concat([pending, data]);
      for (let whole = 1; ; whole++) {
        const parsed = parseCommand(pending);
        if (!parsed) return;
        stats.burst = Math.max(stats.burst, whole);
        pending = pending.subarray(parsed.used);
        if (++commands >= silentAfter) continue;
        const [name, key, value] = parsed.args;
        const command = name.toString().toUpperCase();
        if (mute.includes(command)) continue;
        if (command === 'SET') {
          store.set(key.toString(), Buffer.from(value));
          socket.write('+OK\r\n');
        } else if (command === 'GET') {
          const stored = store.get(key.toString());
          if (!stored) {
            socket.write('$-1\r\n');
            continue;
          }
          const reply = Buffer.from(stored);
          if (++gets === badGet) reply[byte] ^= 0xff;
          socket.write(Buffer.concat([Buffer.from(`$${reply.length}\r\n`), reply, Buffer.from('\r\n')]));
        } else {
          socket.write('+OK\r\n');
        }
      }
    });
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { transport: 'tcp', host: '127.0.0.1', port: /** @type {net.AddressInfo} */ (server.address()).port };
}

/**
 * One RESP array of bulk strings from the front of `buffer`, or null while incomplete.
 * @param {Buffer} buffer
 * @returns {{ args: Buffer[], used: number } | null}
 */
function parseCommand(buffer) {
  let at = 0;
  const line = () => {
    const end = buffer.indexOf('\r\n', at);
    if (end < 0) return null;
    const text = buffer.subarray(at, end).toString();
    at = end + 2;
    return text;
  };
  const head = line();
  if (head === null) return null;
  const n = Number(head.slice(1));
  const args = [];
  for (let i = 0; i < n; i++) {
    const size = line();
    if (size === null) return null;
    const length = Number(size.slice(1));
    if (buffer.length < at + length + 2) return null;
    args.push(buffer.subarray(at, at + length));
    at += length + 2;
  }
  return { args, used: at };
}

/** @param {import('../../lib/client/transport.js').Target} target */
const spec = (target) => ({
  workload: 'redis', targets: [target], size: 16, depth: 2,
  measure: { ms: 100 }, warmup: { ms: 0 }, seed: 5, noDelay: true, timeoutMs: 1000, test: true,
});

describe('the redis workload checks every reply', () => {
  it('a GET answered with one byte changed fails the trial, naming the key and the byte', async () => {
    const target = await respServer({ badGet: 30, byte: 3 });
    const { records } = await runTrial(spec(target));
    expect(records[0].status).toBe('error');
    expect(records[0].error).toMatch(/^redis at tcp 127\.0\.0\.1:\d+: GET udsvstcp:tcp:[01] returned 16 bytes differing from the 16 SET stored at byte 3$/);
  });

  it('a server that stops answering fails the trial within --timeout, not never', async () => {
    const target = await respServer({ silentAfter: 40 });
    const started = Date.now();
    const { records } = await runTrial(spec(target));
    expect(records[0].status).toBe('error');
    expect(records[0].error).toMatch(/^redis at tcp 127\.0\.0\.1:\d+: Command timed out/);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('the redis workload checks every reply inside its pipelines (--batch)', () => {
  it('a GET answered with one byte changed inside a pipeline fails the trial, naming the key and the byte', async () => {
    const stats = { burst: 0 };
    const target = await respServer({ badGet: 30, byte: 5, stats });
    const { records } = await runTrial({ ...spec(target), batch: 4 });
    expect(records[0].status).toBe('error');
    // 2 loops × 4 ops, each its own key
    expect(records[0].error).toMatch(/^redis at tcp 127\.0\.0\.1:\d+: GET udsvstcp:tcp:[0-7] returned 16 bytes differing from the 16 SET stored at byte 5$/);
    expect(stats.burst).toBeGreaterThanOrEqual(8); // a pipeline's 4 SETs and 4 GETs in one write
  });

  it('without one (--batch 1), at most a command per loop reaches the server at once', async () => {
    const stats = { burst: 0 };
    const target = await respServer({ stats });
    const { records } = await runTrial(spec(target));
    expect(records[0].status, records[0].error).toBe('ok');
    expect(records[0].verified_replies).toBe(2 * records[0].ops);
    expect(stats.burst).toBeLessThanOrEqual(2);
  });

  it('every reply of a pipeline checked, a block\'s last pipeline cut short to its ops (7 ops in pipelines of 3: 3, 3, 1)', async () => {
    const target = await respServer({});
    const load = createRedisLoad(target, { size: 16, depth: 1, clients: 2, batch: 3, seed: 5, timeoutMs: 1000 });
    try {
      const block = await load.block(7);
      expect(block.verified).toBe(14);
      expect(block.bytes).toBe(2 * 7 * 16);
    } finally {
      await load.close();
    }
    const { records } = await runTrial({ ...spec(target), batch: 3, clients: 2 });
    expect(records[0].status, records[0].error).toBe('ok');
    expect(records[0].verified_replies).toBe(2 * records[0].ops);
  });

  it('a server that stops answering inside a pipeline fails the trial within --timeout', async () => {
    const target = await respServer({ silentAfter: 40 });
    const started = Date.now();
    const { records } = await runTrial({ ...spec(target), batch: 4 });
    expect(records[0].status).toBe('error');
    expect(records[0].error).toMatch(/^redis at tcp 127\.0\.0\.1:\d+: Command timed out/);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('the redis-rate workload checks every reply, in open loop', () => {
  /** @param {import('../../lib/client/transport.js').Target} target */
  const rateSpec = (target) => ({ ...spec(target), workload: 'redis-rate', depth: 2000 });

  it('a GET answered with one byte changed fails the trial, naming the key (GET i reads key i mod 16) and the byte', async () => {
    const target = await respServer({ badGet: 30, byte: 3 });
    const { records } = await runTrial(rateSpec(target));
    expect(records[0].status).toBe('error');
    expect(records[0].error).toMatch(/^redis at tcp 127\.0\.0\.1:\d+: GET udsvstcp:tcp:rate:13 returned 16 bytes differing from the 16 SET stored at byte 3$/);
  });

  it('a server that stops answering fails the trial within --timeout, the GETs in flight counted', async () => {
    const target = await respServer({ silentAfter: 40 }); // ioredis's HELLO, 16 SETs and 22 GETs answered
    const started = Date.now();
    const { records } = await runTrial(rateSpec(target));
    expect(records[0].status).toBe('error');
    expect(records[0].error).toMatch(/^no answer for 1000 ms \(--timeout\) with [1-9]\d* requests in flight after 22 complete/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a server that stops answering while the keys are SET, before any segment, fails the trial within --timeout too', async () => {
    const target = await respServer({ silentAfter: 5 }); // ioredis's HELLO and 3 SETs answered
    const started = Date.now();
    const { records } = await runTrial(rateSpec(target));
    expect(records[0].status).toBe('error');
    expect(records[0].error).toMatch(/^redis at tcp 127\.0\.0\.1:\d+: no answer to the SETs before the first segment for 1000 ms \(--timeout\)$/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("a server that never answers QUIT holds the lane's close --timeout at most: the trial measured is kept", async () => {
    const target = await respServer({ mute: ['QUIT'] });
    const started = Date.now();
    const { records } = await runTrial({ ...rateSpec(target), depth: 500 });
    expect(records[0].status, records[0].error).toBe('ok');
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
