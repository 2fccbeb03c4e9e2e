/**
 * The nginx configuration of the proxy workload, as text: one nginx on
 * loopback TCP, one server block per listen port, each proxying to one
 * upstream (the app server's TCP listener or its Unix socket). Pure: no file
 * is read or written here.
 *
 * Everything nginx would write (pid, error log, temp files) goes into
 * `prefixDir`, so no system directory and no root is needed; the access log
 * is off, since it would cost a write per request.
 */
import { UsageError } from './errors.js';

/** Idle keep-alive connections each worker keeps to one upstream (with keepalive: true). */
const UPSTREAM_KEEPALIVE = 32;
/** Requests one keep-alive connection may serve (client side, and upstream with keepalive): nginx's default of 1000 would reconnect mid-sweep. */
const KEEPALIVE_REQUESTS = 10_000_000;
/** worker_connections: each proxied request holds two (client and upstream). */
const WORKER_CONNECTIONS = 1024;
const MAX_WORKERS = 64;

/**
 * @typedef {{ transport: 'tcp', host: string, port: number } | { transport: 'uds', path: string }} Upstream
 *
 * @typedef {object} NginxListen one server block
 * @property {number} port loopback TCP port nginx listens on (127.0.0.1 only)
 * @property {Upstream} upstream where it proxies to
 *
 * @typedef {object} NginxConfigOptions
 * @property {NginxListen[]} listen
 * @property {boolean} [keepalive] keep-alive to the upstream (HTTP/1.1, an idle pool of UPSTREAM_KEEPALIVE); default false: HTTP/1.0, one upstream connection per request
 * @property {number} [workers] worker_processes, default 1
 * @property {string} prefixDir absolute path of nginx's private directory (pid, error log, temp files)
 * @property {string} [user] a `user` directive (only meaningful when nginx starts as root)
 */

/** Temp directories nginx's http modules create at start, by directive. */
const TEMP_PATHS = [
  ['client_body_temp_path', 'client_body'],
  ['proxy_temp_path', 'proxy'],
  ['fastcgi_temp_path', 'fastcgi'],
  ['uwsgi_temp_path', 'uwsgi'],
  ['scgi_temp_path', 'scgi'],
];

/**
 * One nginx argument: as it is when it holds only safe characters, else
 * double-quoted with `"` and `\` escaped. Control characters are refused.
 * @param {string} value
 * @param {string} what named in the error
 */
function argument(value, what) {
  if (typeof value !== 'string' || value.length === 0) throw new UsageError(`nginx config: ${what} must be a non-empty string`, 'ERR_NGINX_CONFIG');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new UsageError(`nginx config: ${what} contains a control character: ${JSON.stringify(value)}`, 'ERR_NGINX_CONFIG');
  if (/^[A-Za-z0-9._/:@+,=-]+$/.test(value)) return value;
  return `"${value.replace(/[\\"]/g, '\\$&')}"`;
}

/**
 * @param {unknown} port
 * @param {string} what
 */
function checkPort(port, what) {
  if (!Number.isInteger(port) || /** @type {number} */ (port) < 1 || /** @type {number} */ (port) > 65535) {
    throw new UsageError(`nginx config: ${what} must be an integer port from 1 to 65535, got ${String(port)}`, 'ERR_NGINX_CONFIG');
  }
  return /** @type {number} */ (port);
}

/**
 * The `server` line of an upstream block.
 * @param {Upstream} upstream
 * @param {number} index
 */
function upstreamServer(upstream, index) {
  const what = `listen[${index}].upstream`;
  if (upstream?.transport === 'tcp') {
    const host = upstream.host;
    if (typeof host !== 'string' || !/^[A-Za-z0-9.:-]+$/.test(host)) throw new UsageError(`nginx config: ${what}.host must be a host name or IP address, got ${String(host)}`, 'ERR_NGINX_CONFIG');
    return `${host.includes(':') ? `[${host}]` : host}:${checkPort(upstream.port, `${what}.port`)}`;
  }
  if (upstream?.transport === 'uds') {
    if (!upstream.path?.startsWith('/')) throw new UsageError(`nginx config: ${what}.path must be an absolute socket path, got ${String(upstream.path)}`, 'ERR_NGINX_CONFIG');
    return argument(`unix:${upstream.path}`, `${what}.path`);
  }
  throw new UsageError(`nginx config: ${what}.transport must be 'tcp' or 'uds'`, 'ERR_NGINX_CONFIG');
}

/**
 * The whole nginx.conf, ending in a newline. Upstream blocks are named
 * `upstream_<port>` after the port that proxies to them.
 * @param {NginxConfigOptions} options
 * @returns {string}
 */
export function toNginxConfig({ listen, keepalive = false, workers = 1, prefixDir, user }) {
  if (!Array.isArray(listen) || listen.length === 0) throw new UsageError('nginx config: listen must list at least one port', 'ERR_NGINX_CONFIG');
  if (!Number.isInteger(workers) || workers < 1 || workers > MAX_WORKERS) {
    throw new UsageError(`nginx config: workers must be an integer from 1 to ${MAX_WORKERS}, got ${String(workers)}`, 'ERR_NGINX_CONFIG');
  }
  if (typeof prefixDir !== 'string' || !prefixDir.startsWith('/')) throw new UsageError('nginx config: prefixDir must be an absolute path', 'ERR_NGINX_CONFIG');
  const prefix = prefixDir.replace(/\/+$/, '');
  const inPrefix = (/** @type {string} */ name) => argument(`${prefix}/${name}`, 'prefixDir');
  const ports = listen.map((entry, i) => checkPort(entry?.port, `listen[${i}].port`));
  if (new Set(ports).size !== ports.length) throw new UsageError(`nginx config: listen ports must differ, got ${ports.join(', ')}`, 'ERR_NGINX_CONFIG');

  const lines = [];
  if (user !== undefined) lines.push(`user ${argument(user, 'user')};`);
  lines.push(
    'daemon off;',
    'master_process on;',
    `worker_processes ${workers};`,
    `pid ${inPrefix('nginx.pid')};`,
    `lock_file ${inPrefix('nginx.lock')};`,
    `error_log ${inPrefix('error.log')} warn;`,
    '',
    `events { worker_connections ${WORKER_CONNECTIONS}; }`,
    '',
    'http {',
    '  access_log off;',
    '  # blocks of requests on the same client connections: never close them for their count',
    `  keepalive_requests ${KEEPALIVE_REQUESTS};`,
    ...TEMP_PATHS.map(([directive, name]) => `  ${directive} ${inPrefix(name)};`),
  );
  listen.forEach((entry, i) => {
    const name = `upstream_${ports[i]}`;
    lines.push(
      '',
      `  upstream ${name} {`,
      `    server ${upstreamServer(entry.upstream, i)};`,
      ...(keepalive ? [`    keepalive ${UPSTREAM_KEEPALIVE};`, `    keepalive_requests ${KEEPALIVE_REQUESTS};`] : []),
      '  }',
      '  server {',
      `    listen 127.0.0.1:${ports[i]};`,
      '    location / {',
      `      proxy_pass http://${name};`,
      ...(keepalive ? ['      proxy_http_version 1.1;', '      proxy_set_header Connection "";'] : []),
      '    }',
      '  }',
    );
  });
  lines.push('}', '');
  return lines.join('\n');
}
