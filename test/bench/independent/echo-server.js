#!/usr/bin/env node
/**
 * The stream echo server of the independent scripts, a process of its own:
 * writes back every byte it reads, on one connection at a time.
 *
 *   node echo-server.js tcp | uds <path> | abstract <name> [--corrupt]
 *
 * tcp listens on 127.0.0.1, port 0 (noDelay); abstract listens on the Linux
 * abstract socket '\0' + name. Prints one line when listening, {"port":N}
 * or {}, and quits when its stdin closes (its parent has gone). --corrupt
 * flips the last byte of the first chunk it echoes.
 */
import net from 'node:net';

const [kind, name] = process.argv.slice(2);
let corrupt = process.argv.includes('--corrupt');

const server = net.createServer({ noDelay: true }, (socket) => {
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk) => {
    if (corrupt) { chunk[chunk.length - 1] ^= 0xff; corrupt = false; }
    if (!socket.write(chunk)) {
      socket.pause();
      socket.once('drain', () => socket.resume());
    }
  });
});
server.on('error', (error) => {
  process.stderr.write(`echo server: ${error.message}\n`);
  process.exit(1);
});
server.listen(kind === 'tcp' ? { host: '127.0.0.1', port: 0 } : { path: kind === 'abstract' ? `\0${name}` : name }, () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify(typeof address === 'object' && address ? { port: address.port } : {})}\n`);
});
process.stdin.on('end', () => process.exit(0)).on('close', () => process.exit(0)).resume();
