#!/usr/bin/env node
/**
 * Which HTTP load client costs the client process less CPU per request?
 *
 * A node:http server in its own process listens on TCP (127.0.0.1, port 0)
 * and on a socket file at once and answers GET /<n> with n body bytes. Each
 * client runs in a fresh child process (so no client inherits another's JIT
 * state), in an order that rotates round by round, with 10 keep-alive
 * connections and one request in flight on each:
 *
 * - http-load:   lib/client/http-load.js (undici Clients, one per connection, dispatch)
 * - undici-pool: undici's Pool and its request() API, each body read to its end
 * - node-http:   node:http with a keep-alive Agent (no pipelining)
 * - autocannon:  autocannon's programmatic API; only when it is installed
 *   (`npm install --no-save autocannon@9`), as it is no dependency of ours
 *
 * Every client gets a 300 ms warmup, then is measured for --ms: requests/s,
 * client CPU µs per request (process.cpuUsage over the measured time ÷
 * requests), and client event-loop utilization over the same time. The
 * server's CPU is not measured: it serves every client alike.
 *
 *   node test/bench/http-client.js [--rounds 3] [--ms 1000] [--bodies 64,16384] [--clients http-load,undici-pool,node-http,autocannon]
 *
 * The table goes to stdout, progress to stderr.
 */
import { execFile, spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { Pool } from 'undici';
import { createHttpLoad } from '../../lib/client/http-load.js';
import { httpOrigin } from '../../lib/client/transport.js';

const SELF = fileURLToPath(import.meta.url);
const run = promisify(execFile);
const WARMUP_MS = 300;
const CONNECTIONS = 10;
const PIPELINING = 1;

/** The server: GET /<n> → n bytes; prints its addresses as one JSON line, stops when stdin ends. */
async function serve() {
  /** @type {Map<string, Buffer>} */
  const bodies = new Map();
  const handler = (/** @type {http.IncomingMessage} */ req, /** @type {http.ServerResponse} */ res) => {
    let body = bodies.get(req.url ?? '');
    if (!body) bodies.set(req.url ?? '', body = Buffer.alloc(Number((req.url ?? '/0').slice(1)) || 0, 'x'));
    res.writeHead(200, { 'content-length': body.length, 'content-type': 'application/octet-stream' });
    res.end(body);
  };
  const dir = await mkdtemp(join(tmpdir(), 'udsvstcp-bench-'));
  const path = join(dir, 'http.sock');
  const tcp = http.createServer({ keepAliveTimeout: 60_000 }, handler);
  const uds = http.createServer({ keepAliveTimeout: 60_000 }, handler);
  await new Promise((resolve) => tcp.listen(0, '127.0.0.1', () => resolve(undefined)));
  await new Promise((resolve) => uds.listen(path, () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (tcp.address());
  process.stdout.write(`${JSON.stringify({ tcp: { transport: 'tcp', host: '127.0.0.1', port }, uds: { transport: 'uds', path } })}\n`);
  process.stdin.resume();
  process.stdin.on('end', async () => {
    tcp.closeAllConnections();
    uds.closeAllConnections();
    tcp.close();
    uds.close();
    await rm(dir, { recursive: true, force: true });
  });
}

/**
 * Stamps the measured window of an event-driven client: call tick() after
 * each verified response; the returned promise resolves with the figures.
 * @param {number} ms
 */
function meter(ms) {
  const began = performance.now();
  /** @type {{ at: number, done: number, cpu: NodeJS.CpuUsage, elu: import('node:perf_hooks').EventLoopUtilization } | undefined} */
  let start;
  let done = 0;
  /** @type {(figures: Figures) => void} */
  let finish = () => {};
  /** @type {Promise<Figures>} */
  const result = new Promise((resolve) => { finish = resolve; });
  let over = false;
  return {
    result,
    get over() { return over; },
    tick() {
      done++;
      if (over) return;
      const now = performance.now();
      if (!start) {
        if (now - began >= WARMUP_MS) start = { at: now, done, cpu: process.cpuUsage(), elu: performance.eventLoopUtilization() };
      } else if (now - start.at >= ms) {
        over = true;
        finish(figures(done - start.done, now - start.at, process.cpuUsage(start.cpu), performance.eventLoopUtilization(start.elu)));
      }
    },
  };
}

/**
 * @typedef {{ requests: number, req_per_s: number, cpu_us_per_req: number, elu: number }} Figures
 * @param {number} requests @param {number} wallMs @param {NodeJS.CpuUsage} cpu @param {import('node:perf_hooks').EventLoopUtilization} elu
 * @returns {Figures}
 */
const figures = (requests, wallMs, cpu, elu) => ({ requests, req_per_s: requests / (wallMs / 1000), cpu_us_per_req: (cpu.user + cpu.system) / requests, elu: elu.utilization });

/** @typedef {{ target: import('../../lib/client/transport.js').SocketTarget, body: number, ms: number }} Job */

/** @type {Record<string, (job: Job) => Promise<Figures>>} */
const CLIENTS = {
  /** lib/client/http-load.js in blocks of 1000 requests, measured around whole blocks */
  async 'http-load'({ target, body, ms }) {
    const load = createHttpLoad(target, { connections: CONNECTIONS, pipelining: PIPELINING, path: `/${body}`, expectedBytes: body, timeoutMs: 10_000 });
    const began = performance.now();
    while (performance.now() - began < WARMUP_MS) await load.block(1000);
    const cpu = process.cpuUsage();
    const elu = performance.eventLoopUtilization();
    let requests = 0;
    let first = 0;
    let last = 0;
    while (last - first < ms) {
      const block = await load.block(1000);
      if (!first) first = block.start;
      last = block.end;
      requests += block.requests;
    }
    const result = figures(requests, last - first, process.cpuUsage(cpu), performance.eventLoopUtilization(elu));
    await load.close();
    return result;
  },

  async 'undici-pool'({ target, body, ms }) {
    const { origin, socketPath } = httpOrigin(target);
    const pool = new Pool(origin, { connections: CONNECTIONS, pipelining: PIPELINING, socketPath });
    const m = meter(ms);
    const loop = async () => {
      while (!m.over) {
        const res = await pool.request({ path: `/${body}`, method: 'GET' });
        let bytes = 0;
        for await (const chunk of res.body) bytes += chunk.length;
        if (res.statusCode !== 200 || bytes !== body) throw new Error(`status ${res.statusCode}, ${bytes} bytes`);
        m.tick();
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS * PIPELINING }, loop));
    await pool.close();
    return m.result;
  },

  async 'node-http'({ target, body, ms }) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const where = 'path' in target ? { socketPath: target.path } : { host: target.host, port: target.port };
    const m = meter(ms);
    const once = () => new Promise((resolve, reject) => {
      http.get({ ...where, agent, path: `/${body}` }, (res) => {
        let bytes = 0;
        res.on('data', (chunk) => { bytes += chunk.length; });
        res.on('end', () => (res.statusCode === 200 && bytes === body ? resolve(undefined) : reject(new Error(`status ${res.statusCode}, ${bytes} bytes`))));
      }).on('error', reject);
    });
    const loop = async () => {
      while (!m.over) {
        await once();
        m.tick();
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, loop));
    agent.destroy();
    return m.result;
  },

  /** autocannon counts a response per 'response' event; it checks no body length, only the status class */
  async autocannon({ target, body, ms }) {
    const name = 'autocannon';
    const { default: autocannon } = await import(name);
    const { origin, socketPath } = httpOrigin(target);
    const m = meter(ms);
    const instance = autocannon({ url: `${origin}/${body}`, socketPath, connections: CONNECTIONS, pipelining: PIPELINING, duration: 3600 }, () => {});
    instance.on('response', (/** @type {unknown} */ _client, /** @type {number} */ status) => {
      if (status !== 200) throw new Error(`status ${status}`);
      m.tick();
    });
    const result = await m.result;
    instance.stop();
    return result;
  },
};

/** @param {number[]} values */
const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function parent() {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '3' },
      ms: { type: 'string', default: '1000' },
      bodies: { type: 'string', default: '64,16384' },
      clients: { type: 'string', default: Object.keys(CLIENTS).join(',') },
    },
  });
  const rounds = Number(values.rounds);
  const ms = Number(values.ms);
  const bodies = values.bodies.split(',').map(Number);
  let clients = values.clients.split(',');
  for (const name of clients) if (!CLIENTS[name]) throw new Error(`--clients: no client ${name}; known: ${Object.keys(CLIENTS).join(', ')}`);
  if (clients.includes('autocannon')) {
    const name = 'autocannon';
    try {
      await import(name);
    } catch {
      process.stderr.write('autocannon is not installed (it is no dependency of ours): skipped; `npm install --no-save autocannon@9` to include it\n');
      clients = clients.filter((c) => c !== 'autocannon');
    }
  }

  const server = spawn(process.execPath, [SELF, '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const targets = await new Promise((resolve, reject) => {
    server.stdout.once('data', (chunk) => resolve(JSON.parse(String(chunk))));
    server.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
  process.stderr.write(`http clients: node ${process.version}, ${rounds} rounds of ${ms} ms, ${CONNECTIONS} connections, pipelining ${PIPELINING}, server pid ${server.pid}\n`);
  /** @type {{ client: string, transport: string, body: number, round: number, figures: Figures }[]} */
  const runs = [];
  try {
    for (let round = 0; round < rounds; round++) {
      for (const body of bodies) {
        for (const transport of /** @type {const} */ (['tcp', 'uds'])) {
          const order = clients.map((_, i) => clients[(i + round) % clients.length]);
          for (const client of order) {
            const job = { target: targets[transport], body, ms };
            const { stdout } = await run(process.execPath, [SELF, '--client', client, JSON.stringify(job)], { timeout: 60_000 });
            const f = /** @type {Figures} */ (JSON.parse(stdout));
            runs.push({ client, transport, body, round, figures: f });
            process.stderr.write(`  round ${round + 1} ${client} ${transport} ${body} B: ${Math.round(f.req_per_s)} req/s, ${f.cpu_us_per_req.toFixed(1)} µs/req, ELU ${f.elu.toFixed(2)}\n`);
          }
        }
      }
    }
  } finally {
    server.stdin.end();
  }
  process.stdout.write('| client | transport | body B | req/s (median; runs) | client CPU µs/req (median; runs) | client ELU (median; runs) |\n|---|---|---:|---|---|---|\n');
  for (const body of bodies) {
    for (const transport of ['tcp', 'uds']) {
      for (const client of clients) {
        const mine = runs.filter((r) => r.client === client && r.transport === transport && r.body === body).map((r) => r.figures);
        const cell = (/** @type {(f: Figures) => number} */ pick, /** @type {number} */ digits) => `${median(mine.map(pick)).toFixed(digits)}; ${mine.map((f) => pick(f).toFixed(digits)).join(' ')}`;
        process.stdout.write(`| ${client} | ${transport} | ${body} | ${cell((f) => f.req_per_s, 0)} | ${cell((f) => f.cpu_us_per_req, 1)} | ${cell((f) => f.elu, 2)} |\n`);
      }
    }
  }
}

if (process.argv[2] === '--serve') {
  await serve();
} else if (process.argv[2] === '--client') {
  const result = await CLIENTS[process.argv[3]](JSON.parse(process.argv[4]));
  process.stdout.write(JSON.stringify(result));
  process.exit(0); // autocannon keeps its sampling timers until its next tick
} else {
  await parent();
}
