/**
 * Misbehaving echo servers on real sockets (127.0.0.1 port 0), for fault tests.
 */
import net from 'node:net';

/**
 * @param {(socket: net.Socket) => void} handler
 * @returns {Promise<{ target: { transport: 'tcp', host: string, port: number }, close: () => Promise<void> }>}
 */
export async function startTcpServer(handler) {
  /** @type {Set<net.Socket>} */
  const sockets = new Set();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    handler(socket);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {net.AddressInfo} */ (server.address());
  return {
    target: { transport: 'tcp', host: '127.0.0.1', port },
    close: () => new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve(undefined));
    }),
  };
}

/**
 * Echoes, but flips the bits of the stream byte at `offset`.
 * @param {number} offset
 */
export function corruptingServer(offset) {
  return startTcpServer((socket) => {
    let seen = 0;
    socket.on('data', (chunk) => {
      const out = Buffer.from(chunk);
      if (offset >= seen && offset < seen + out.length) out[offset - seen] ^= 0xff;
      seen += out.length;
      socket.write(out);
    });
  });
}

/**
 * Echoes the first `bytes` bytes, then either goes silent (still reading)
 * or closes the connection.
 * @param {number} bytes
 * @param {'silent' | 'close'} then
 */
function limitedServer(bytes, then) {
  return startTcpServer((socket) => {
    let seen = 0;
    socket.on('data', (chunk) => {
      const keep = Math.max(0, Math.min(chunk.length, bytes - seen));
      seen += chunk.length;
      if (keep > 0) socket.write(chunk.subarray(0, keep));
      if (then === 'close' && seen >= bytes) socket.destroy();
    });
  });
}

/** @param {number} bytes echoed before the server goes silent */
export const stallingServer = (bytes) => limitedServer(bytes, 'silent');

/** @param {number} bytes echoed before the server closes */
export const closingServer = (bytes) => limitedServer(bytes, 'close');

/**
 * Echoes byte-exact but re-chunks the stream: it holds bytes back and writes
 * them in pieces of 1 to 7 bytes and in coalesced runs, so the client's reads
 * split packets and join several.
 */
export function rechunkingServer() {
  return startTcpServer((socket) => {
    socket.setNoDelay(true);
    /** @type {Buffer[]} */
    let held = [];
    let turn = 0;
    socket.on('data', (chunk) => {
      held.push(chunk);
      const all = Buffer.concat(held);
      held = [];
      let pos = 0;
      while (pos < all.length) {
        const piece = turn++ % 3 === 0 ? all.length - pos : 1 + (turn % 7);
        socket.write(all.subarray(pos, Math.min(all.length, pos + piece)));
        pos += piece;
      }
    });
  });
}

/**
 * Echoes with a 2014-style greeting first.
 * @param {string} greeting
 */
export function greetingServer(greeting) {
  return startTcpServer((socket) => {
    socket.write(greeting);
    socket.pipe(socket);
  });
}

/**
 * Echoes byte-exact except that packet `index` is replaced by packet 0 (a stale
 * replay): only distinct packets in flight can catch it.
 * @param {number} size
 * @param {number} index
 */
export function replayingServer(size, index) {
  return startTcpServer((socket) => {
    let seen = 0;
    /** @type {Buffer[]} */
    const first = [];
    socket.on('data', (chunk) => {
      const out = Buffer.from(chunk);
      if (seen < size) first.push(chunk.subarray(0, Math.min(chunk.length, size - seen)));
      // the bytes of packet `index` in this chunk, replaced by the first packet's (stream order: it is whole by then)
      const start = index * size;
      const from = Math.max(seen, start);
      const to = Math.min(seen + chunk.length, start + size);
      if (from < to) Buffer.concat(first).copy(out, from - seen, from - start, to - start);
      seen += chunk.length;
      socket.write(out);
    });
  });
}

/**
 * Send `data` on a connected socket and collect exactly as many bytes back
 * (plus `extra` expected before the echo, a greeting say), then end it.
 * @param {net.Socket} socket
 * @param {Buffer} data
 * @param {number} [extra]
 * @returns {Promise<Buffer>}
 */
export function echoBack(socket, data, extra = 0) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    let length = 0;
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= data.length + extra) {
        socket.end();
        resolve(Buffer.concat(chunks));
      }
    });
    socket.write(data);
  });
}
