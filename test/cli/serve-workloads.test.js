/**
 * `udsvstcp serve --workload NAME` serves that workload's server on both
 * listeners: the greeter writes `Hello there!` and closes, the http server
 * answers GET /<n> with n bytes.
 */
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, startServeCli } from '../helpers/cli.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(() => tmp.remove());

/**
 * Everything a connection receives until the server closes it.
 * @param {net.NetConnectOpts} options
 * @returns {Promise<string>}
 */
function readAll(options) {
  return new Promise((resolve, reject) => {
    let text = '';
    net.connect(options).setEncoding('utf8').on('data', (t) => { text += t; }).on('end', () => resolve(text)).on('error', reject);
  });
}

describe('udsvstcp serve --workload', () => {
  it('connect: the greeter on TCP and UDS says Hello there! and closes', async () => {
    const path = join(tmp.dir, 'greeter.sock');
    const serve = startServeCli(['--workload', 'connect', '--uds', path]);
    try {
      const info = await serve.ready;
      expect(await readAll({ path })).toBe('Hello there!');
      expect(await readAll({ host: info.tcp.host, port: info.tcp.port })).toBe('Hello there!');
      expect(serve.stderr()).toContain('udsvstcp greeter server');
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });

  it('http: GET /<n> answers n bytes over the socket file', async () => {
    const path = join(tmp.dir, 'http.sock');
    const serve = startServeCli(['--workload', 'http', '--uds', path]);
    try {
      await serve.ready;
      const body = await new Promise((resolve, reject) => {
        http.get({ socketPath: path, path: '/5', agent: false }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (t) => { text += t; }).on('end', () => resolve({ status: res.statusCode, text }));
        }).on('error', reject);
      });
      expect(body).toEqual({ status: 200, text: 'aaaaa' });
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });
});
