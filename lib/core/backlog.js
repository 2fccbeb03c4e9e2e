/**
 * The listen backlog. When it is full, a Unix socket's connect() fails at once with EAGAIN, where loopback TCP drops
 * the SYN and retries a second later (docs/regimes.md#a-connection-burst-beyond-the-backlog). So the server's backlog
 * follows the most connections a trial opens at once, never below Node's default; the kernel caps it at
 * net.core.somaxconn (environment.js readNetLimits), said when it caps below what a trial opens.
 */
/** Node's backlog when listen() is given none. */
export const NODE_BACKLOG = 511;

/**
 * The backlog a server listens with for a trial that opens `connections` at once per listener.
 */
export function listenBacklog(connections = 0) {
  return Math.max(NODE_BACKLOG, Math.ceil(connections));
}

/**
 * Why a trial's connection burst may overflow the accept queue (somaxconn caps the backlog below it), or null.
 * @param {object} options
 * @param {number} options.connections the most a trial opens at once to one listener
 * @param {number | null | undefined} options.somaxconn
 * @param {string} options.flag what asked for them, e.g. `--connections 1024`
 */
export function backlogWarning({ connections, somaxconn, flag }) {
  if (typeof somaxconn !== 'number' || !Number.isFinite(somaxconn) || somaxconn >= connections) return null;
  return `net.core.somaxconn ${somaxconn} caps the server's listen backlog below the ${connections} connections a trial opens at once (${flag}): past ${somaxconn} waiting, a UDS connect fails at once (EAGAIN) where TCP's waits for a SYN retry; raise it (sudo sysctl -w net.core.somaxconn=${listenBacklog(connections)}) to measure the transports, not the queue (docs/regimes.md)`;
}
