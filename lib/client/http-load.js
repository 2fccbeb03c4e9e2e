/**
 * A keep-alive HTTP/1.1 load client run in blocks, on undici: one Client per connection, so the server sees exactly
 * `connections`, opened before the first block by one request each and kept across blocks (a block that had to reopen
 * one also timed its setup, and counts it). A block sends `requests` GETs; a request's latency runs from its dispatch to
 * its body's last byte. The watchdog reads a counter the handlers bump (no clock read per chunk); undici's per-request
 * timers are off, as they would cost a timer refresh per request and fire no sooner.
 *
 * In open loop (`open`) a block is a segment of ./open-driver.js: request j goes to connection j mod `connections`
 * when due, the connections taking turns (a busy one queues it in undici); each is timed from when it was due
 * (response), from undici's write of it (service), and by the pacer's lag between them.
 */
import { performance } from 'node:perf_hooks';
import { Client } from 'undici';
import { RunError } from '../core/errors.js';
import { createOpenDriver } from './open-driver.js';
import { describeTarget, httpOrigin } from './transport.js';

/**
 * @typedef {import('./blocks.js').BlockTimes & { requests: number, bytes: number, connects: number, sent?: number }} HttpBlock
 *   from just before the block's first request to the last byte of its last response; `requests` received, all
 *   verified, their body `bytes`, `connects`: connections opened during the block, 0 while keep-alive holds; open loop:
 *   `sent` (./open-driver.js SegmentTimes has the rest)
 */

/**
 * @typedef {object} HttpLoad
 * @property {(requests: number, histogram?: import('node:perf_hooks').RecordableHistogram) => Promise<HttpBlock>} block
 *   resolves when all responses are in and verified (see the top); latencies in ns go to `histogram`
 * @property {() => Promise<void>} close close the connections (a running block fails with ERR_CLOSED)
 */

/**
 * @typedef {object} HttpLoadOptions
 * @property {number} connections keep-alive connections, each an undici Client
 * @property {number} [pipelining] requests in flight per connection, 1 = one at a time
 * @property {string} [path] the request path
 * @property {number} expectedBytes the body size every response must have
 * @property {number} [timeoutMs] fail when requests are in flight and nothing arrives for this long
 * @property {import('./pipeline.js').OpenLoop} [open] offer the requests on an open-loop schedule, in segments
 */

const KEEP_ALIVE_MS = 10 * 60_000;

/**
 * @param {import('./transport.js').Target} target
 * @param {HttpLoadOptions} options
 * @returns {HttpLoad}
 */
export function createHttpLoad(target, { connections, pipelining = 1, path = '/', expectedBytes, timeoutMs = 10_000, open }) {
  const where = describeTarget(target);
  const { origin, socketPath } = httpOrigin(target);
  const request = /** @type {import('undici').Dispatcher.DispatchOptions} */ ({ method: 'GET', path, blocking: false });
  const inFlight = new Uint32Array(connections);
  let issued = 0;
  let completed = 0;
  let limit = 0; // requests to send, in all, by the end of the current block
  let bodyBytes = 0;
  let connects = 0;
  let progress = 0; // response events so far: the watchdog's sign of life
  let opened = false;
  let closed = false;
  /** @type {Error | undefined} */
  let failure;
  /** @type {import('node:perf_hooks').RecordableHistogram | undefined} */
  let histogram;
  /** @type {NodeJS.Timeout | undefined} */
  let watchdog;
  /** @type {{ first: number, start: number, bytes: number, connects: number, resolve: (b: HttpBlock) => void, reject: (e: Error) => void } | undefined} */
  let current;

  const clients = Array.from({ length: connections }, () => {
    const client = new Client(origin, {
      socketPath,
      pipelining,
      connectTimeout: timeoutMs,
      headersTimeout: 0,
      bodyTimeout: 0,
      keepAliveTimeout: KEEP_ALIVE_MS,
      keepAliveMaxTimeout: KEEP_ALIVE_MS,
    });
    client.on('connect', () => { connects++; });
    return client;
  });

  /** @param {Error} error */
  const fail = (error) => {
    if (failure) return;
    failure = error;
    limit = issued;
    clearInterval(watchdog);
    driver?.fail(error);
    // not from inside undici's callback: a Client destroyed while it handles
    // its socket's close trips an assertion in undici 7
    queueMicrotask(() => {
      for (const client of clients) client.destroy(error).catch(() => {});
    });
    current?.reject(error);
    current = undefined;
  };

  /** What is in flight and done in the current block, for error messages. */
  const inFlightNow = () => (driver && opened
    ? `${driver.state.sent - driver.state.received} requests in flight after ${driver.state.received} complete` // open loop: the driver counts them
    : `${issued - completed} requests in flight after ${current ? completed - current.first : completed} complete`);

  /** @param {number} got @param {string} [also] */
  const wrongBody = (got, also = '') => new RunError(`${where}: expected a response body of ${expectedBytes} bytes, got ${got}${also}`, 'ERR_VERIFY');

  /** @param {Error & { code?: string }} error */
  const toRunError = (error) => {
    const code = error.code;
    if (code === 'UND_ERR_CONNECT_TIMEOUT') return new RunError(`could not connect to ${where} within ${timeoutMs} ms (--timeout)`, 'ERR_TIMEOUT');
    if (code === 'ECONNREFUSED' || code === 'ENOENT') return new RunError(`cannot connect to ${where}: ${code} (is ${target.via ? 'the proxy' : 'the HTTP server'} running?)`, 'ERR_CONNECT');
    if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE') {
      return new RunError(`${where} closed a connection with ${inFlightNow()}`, 'ERR_CLOSED');
    }
    if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') return new RunError(`${where}: a response body did not match its Content-Length`, 'ERR_VERIFY');
    return new RunError(`${where}: ${code ?? error.message}`, 'ERR_CONNECTION');
  };

  /** One request and its response, as an undici dispatch handler. */
  class Exchange {
    /** @param {number} connection @param {number} [due] open loop: when it was due (ms) */
    constructor(connection, due) {
      this.connection = connection;
      this.bytes = 0;
      this.start = performance.now();
      this.due = due;
    }

    /** undici writes the request now: in open loop, a busy connection's queue is behind it */
    onRequestStart() {
      if (this.due !== undefined) this.start = performance.now();
    }

    /**
     * @param {unknown} _controller
     * @param {number} status
     * @param {Record<string, string | string[] | undefined>} headers
     * @param {string} [statusText]
     */
    onResponseStart(_controller, status, headers, statusText) {
      progress++;
      if (status < 200 || failure) return; // 1xx: the response is still to come
      if (status !== 200) {
        fail(new RunError(`${where}: expected status 200, got ${status}${statusText ? ` ${statusText}` : ''}`, 'ERR_VERIFY'));
        return;
      }
      const length = headers['content-length'];
      if (length !== undefined && Number(length) !== expectedBytes) fail(wrongBody(Number(length), ' (Content-Length)'));
    }

    /** @param {unknown} _controller @param {Buffer} chunk */
    onResponseData(_controller, chunk) {
      progress++;
      if (this.due !== undefined) driver?.heard(performance.now()); // a long body still arriving is no stall
      this.bytes += chunk.length;
      if (this.bytes > expectedBytes) fail(wrongBody(this.bytes, ' or more'));
    }

    onResponseEnd() {
      if (failure) return;
      const now = performance.now();
      progress++;
      if (this.bytes !== expectedBytes) {
        fail(wrongBody(this.bytes));
        return;
      }
      bodyBytes += this.bytes;
      if (this.due !== undefined && driver) {
        pending.delete(this);
        driver.heard(now);
        driver.complete(now, this.due, this.start);
        driver.settle(now);
        return;
      }
      histogram?.record(Math.max(1, Math.round((now - this.start) * 1e6)));
      completed++;
      const connection = this.connection;
      inFlight[connection]--;
      if (issued < limit) send(connection);
      else if (current && completed === limit) {
        const { first, start, bytes, connects: before, resolve } = current;
        current = undefined;
        clearInterval(watchdog);
        resolve({ start, end: now, requests: completed - first, bytes: bodyBytes - bytes, connects: connects - before });
      }
    }

    /** @param {unknown} _controller @param {Error} error */
    onResponseError(_controller, error) {
      fail(toRunError(error));
    }
  }

  /** @param {number} connection */
  const send = (connection) => {
    issued++;
    inFlight[connection]++;
    clients[connection].dispatch(request, new Exchange(connection));
  };

  /**
   * Send `requests` requests, at most `perConnection` in flight on each connection.
   * @param {number} requests
   * @param {import('node:perf_hooks').RecordableHistogram | undefined} recordTo
   * @param {number} perConnection
   * @returns {Promise<HttpBlock>}
   */
  const run = (requests, recordTo, perConnection) => {
    if (failure) return Promise.reject(failure);
    if (closed) return Promise.reject(new RunError('this HTTP load is closed', 'ERR_INTERNAL'));
    if (current) return Promise.reject(new RunError('a block is already running on this HTTP load', 'ERR_INTERNAL'));
    if (!Number.isSafeInteger(requests) || requests < 1) return Promise.reject(new RunError(`a block needs at least one request; got ${requests}`, 'ERR_INTERNAL'));
    return new Promise((resolve, reject) => {
      histogram = recordTo;
      const start = performance.now();
      current = { first: completed, start, bytes: bodyBytes, connects, resolve, reject };
      limit = issued + requests;
      let seen = progress;
      let seenAt = start;
      watchdog = setInterval(() => {
        const now = performance.now();
        if (progress !== seen) {
          seen = progress;
          seenAt = now;
        } else if (current && now - seenAt > timeoutMs) {
          fail(new RunError(`no response from ${where} for ${timeoutMs} ms (--timeout) with ${inFlightNow()}`, 'ERR_TIMEOUT'));
        }
      }, Math.max(10, Math.min(250, timeoutMs / 4)));
      watchdog.unref();
      // spread the first requests over the connections, one round at a time
      for (let round = 0; round < perConnection && issued < limit; round++) {
        for (let connection = 0; connection < connections && issued < limit; connection++) {
          if (inFlight[connection] === round) send(connection);
        }
      }
    });
  };

  /** Open loop: the requests in flight, for the due times of those a stall leaves unanswered. @type {Set<Exchange>} */
  const pending = new Set();
  const driver = open && createOpenDriver({
    ...open,
    timeoutMs,
    what: 'HTTP load',
    send: (index, due) => {
      const exchange = new Exchange(index % connections, due);
      pending.add(exchange);
      clients[exchange.connection].dispatch(request, exchange);
    },
    unanswered: () => Array.from(pending, (exchange) => /** @type {number} */ (exchange.due)),
    onFail: (error) => fail(error),
  });

  return {
    async block(requests, recordTo) {
      if (closed) throw failure ?? new RunError('this HTTP load is closed', 'ERR_CLOSED');
      if (!opened) await run(connections, undefined, 1); // one request on each connection opens it
      opened = true;
      if (!driver) return run(requests, recordTo, pipelining);
      const before = { bytes: bodyBytes, connects };
      const segment = await driver.block(requests, recordTo);
      return { ...segment, requests: segment.sent, bytes: bodyBytes - before.bytes, connects: connects - before.connects };
    },
    async close() {
      if (closed) return;
      closed = true;
      if (current) fail(new RunError(`closed with ${issued - completed} requests in flight`, 'ERR_CLOSED'));
      if (driver?.running()) fail(new RunError(`closed with ${driver.state.sent - driver.state.received} requests in flight`, 'ERR_CLOSED'));
      clearInterval(watchdog);
      driver?.close();
      await Promise.all(clients.map((client) => (client.destroyed ? undefined : client.destroy().catch(() => {}))));
    },
  };
}
