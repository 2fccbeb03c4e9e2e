/**
 * toNginxConfig: the nginx.conf text of the proxy workload, checked as text.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../lib/core/errors.js';
import { toNginxConfig } from '../../lib/fixture/nginx-config.js';

/** @type {import('../../lib/fixture/nginx-config.js').NginxListen[]} */
const LISTEN = [
  { port: 8001, upstream: { transport: 'tcp', host: '127.0.0.1', port: 9001 } },
  { port: 8002, upstream: { transport: 'uds', path: '/tmp/app/app.sock' } },
];

const EXPECTED = `daemon off;
master_process on;
worker_processes 1;
pid /tmp/udsvstcp-nginx-abc/nginx.pid;
lock_file /tmp/udsvstcp-nginx-abc/nginx.lock;
error_log /tmp/udsvstcp-nginx-abc/error.log warn;

events { worker_connections 1024; }

http {
  access_log off;
  # blocks of requests on the same client connections: never close them for their count
  keepalive_requests 10000000;
  client_body_temp_path /tmp/udsvstcp-nginx-abc/client_body;
  proxy_temp_path /tmp/udsvstcp-nginx-abc/proxy;
  fastcgi_temp_path /tmp/udsvstcp-nginx-abc/fastcgi;
  uwsgi_temp_path /tmp/udsvstcp-nginx-abc/uwsgi;
  scgi_temp_path /tmp/udsvstcp-nginx-abc/scgi;

  upstream upstream_8001 {
    server 127.0.0.1:9001;
  }
  server {
    listen 127.0.0.1:8001;
    location / {
      proxy_pass http://upstream_8001;
    }
  }

  upstream upstream_8002 {
    server unix:/tmp/app/app.sock;
  }
  server {
    listen 127.0.0.1:8002;
    location / {
      proxy_pass http://upstream_8002;
    }
  }
}
`;

describe('toNginxConfig', () => {
  it('writes one server per port, each proxying to its upstream, everything in the prefix directory', () => {
    expect(toNginxConfig({ listen: LISTEN, prefixDir: '/tmp/udsvstcp-nginx-abc/' })).toBe(EXPECTED);
  });

  it('with keepalive: an idle pool of 32 and HTTP/1.1 without Connection: close, in every server', () => {
    const text = toNginxConfig({ listen: LISTEN, keepalive: true, prefixDir: '/tmp/udsvstcp-nginx-abc' });
    expect(text).not.toBe(EXPECTED);
    const without = text
      .replaceAll('    keepalive 32;\n    keepalive_requests 10000000;\n', '')
      .replaceAll('      proxy_http_version 1.1;\n      proxy_set_header Connection "";\n', '');
    expect(without).toBe(EXPECTED);
    expect(text.match(/keepalive 32;/g)).toHaveLength(2);
    expect(text.match(/proxy_http_version 1\.1;/g)).toHaveLength(2);
    expect(text.match(/proxy_set_header Connection "";/g)).toHaveLength(2);
  });

  it('sizes worker_connections and worker_rlimit_nofile for the connections: a client and an upstream connection each, on each port, and a margin', () => {
    const text = toNginxConfig({ listen: LISTEN, connections: 400, prefixDir: '/tmp/udsvstcp-nginx-abc' });
    // 2 × 400 × 2 ports + 32 idle upstream × 2 ports + 64 = 1728 connections; 64 files more
    expect(text.split('\n').slice(0, 4)).toEqual(['daemon off;', 'master_process on;', 'worker_processes 1;', 'worker_rlimit_nofile 1792;']);
    expect(text).toContain('\nevents { worker_connections 1728; }\n');
    expect(text.replace('worker_rlimit_nofile 1792;\n', '').replace('worker_connections 1728;', 'worker_connections 1024;')).toBe(EXPECTED);
  });

  it('keeps nginx\'s 1024 connections, and the open-file limit it inherits, where they are enough', () => {
    expect(toNginxConfig({ listen: LISTEN, connections: 10, prefixDir: '/tmp/udsvstcp-nginx-abc' })).toBe(EXPECTED);
    expect(toNginxConfig({ listen: LISTEN, connections: 224, prefixDir: '/tmp/udsvstcp-nginx-abc' })).toBe(EXPECTED); // 896 + 64 + 64 = 1024
    expect(toNginxConfig({ listen: LISTEN, connections: 225, prefixDir: '/tmp/udsvstcp-nginx-abc' })).toContain('worker_connections 1028;');
  });

  it('listens on loopback only, never on every address', () => {
    const text = toNginxConfig({ listen: LISTEN, prefixDir: '/p' });
    const listens = text.split('\n').filter((line) => line.trim().startsWith('listen '));
    expect(listens).toEqual(['    listen 127.0.0.1:8001;', '    listen 127.0.0.1:8002;']);
    expect(text).not.toContain('0.0.0.0');
  });

  it('sets workers, and a user only when asked', () => {
    const text = toNginxConfig({ listen: LISTEN, workers: 2, prefixDir: '/p', user: 'bench' });
    expect(text.split('\n').slice(0, 4)).toEqual(['user bench;', 'daemon off;', 'master_process on;', 'worker_processes 2;']);
    expect(toNginxConfig({ listen: LISTEN, prefixDir: '/p' })).not.toMatch(/^user /m);
  });

  it('quotes a path with spaces or quotes, and brackets an IPv6 upstream', () => {
    const text = toNginxConfig({
      listen: [
        { port: 8001, upstream: { transport: 'uds', path: '/tmp/a dir/x"y.sock' } },
        { port: 8002, upstream: { transport: 'tcp', host: '::1', port: 9001 } },
      ],
      prefixDir: '/tmp/my tmp',
    });
    expect(text).toContain('    server "unix:/tmp/a dir/x\\"y.sock";\n');
    expect(text).toContain('    server [::1]:9001;\n');
    expect(text).toContain('pid "/tmp/my tmp/nginx.pid";\n');
  });

  it.each([
    [{ listen: [] }, /at least one port/],
    [{ listen: [LISTEN[0], { ...LISTEN[1], port: 8001 }] }, /ports must differ/],
    [{ listen: [{ ...LISTEN[0], port: 0 }] }, /listen\[0\]\.port must be an integer port/],
    [{ listen: LISTEN, workers: 0 }, /workers must be an integer from 1/],
    [{ listen: LISTEN, connections: -1 }, /connections must be a count of connections/],
    [{ listen: [{ port: 8001, upstream: { transport: 'uds', path: 'app.sock' } }] }, /absolute socket path/],
    [{ listen: [{ port: 8001, upstream: { transport: 'uds', path: '/tmp/a\nb' } }] }, /control character/],
    [{ listen: [{ port: 8001, upstream: { transport: 'tcp', host: 'a;b', port: 1 } }] }, /host name or IP address/],
    [{ listen: [{ port: 8001, upstream: { transport: 'udp', port: 1 } }] }, /'tcp' or 'uds'/],
  ])('refuses bad input with a one-line UsageError (%#)', (options, message) => {
    const call = () => toNginxConfig(/** @type {any} */ ({ prefixDir: '/p', ...options }));
    expect(call).toThrow(UsageError);
    expect(call).toThrow(message);
  });

  it('refuses a relative prefix directory', () => {
    expect(() => toNginxConfig({ listen: LISTEN, prefixDir: 'tmp' })).toThrow(/prefixDir must be an absolute path/);
  });
});
