/**
 * What a transport declares (types only): name and label, what it carries, its platforms, how the server listens, how
 * the client reaches it and whose process pays for each end; lib/fixture/server.js and lib/client/transport.js use it.
 */

/**
 * What a transport can carry, and so which workloads may measure it:
 * - `messages`: an echo of framed packets (every stream can; a message channel can too);
 * - `stream`: a duplex byte stream the client opens as a net.Socket (stream, connect, http);
 * - `upstream`: a server outside Node reaches it or listens on it by an address or a socket path: nginx forwards to it
 *   (proxy), redis-server (redis) and a PostgreSQL cluster (postgres) listen on it (lib/fixture/outside.js).
 * A workload declares the one it needs (Workload.needs).
 * @typedef {'messages' | 'stream' | 'upstream'} Capability
 */

/**
 * Where a listener is reached, as the server reports it (JSON over the control channel).
 * @typedef {{ host: string, port: number } | { path: string }} Address
 */

/**
 * @typedef {object} ListenContext what the server gives a listener
 * @property {string} host TCP's address to bind (127.0.0.1)
 * @property {number} port TCP's port (0: any free one)
 * @property {string} [path] UDS: the socket file to bind (default: `<name>.sock` in a fresh private directory)
 * @property {string} name the server's name (echo, sink, …), for names of sockets
 * @property {number} [backlog] the listen backlog (lib/core/backlog.js); default Node's, 511
 */

/**
 * @typedef {object} Bound a listener bound
 * @property {Address} address where clients reach it
 * @property {import('../fixture/socket-file.js').OwnedSocket} [owned] a socket file (and private directory) to remove when the server closes
 */

/**
 * @typedef {object} Transport
 * @property {string} name as in flags, spec files and the `transport` column: 'tcp', 'uds', 'uds-abstract'
 * @property {string} label for people: 'TCP', 'UDS', 'UDS abstract'
 * @property {string} what one line for help, docs and meta.json
 * @property {Capability[]} carries
 * @property {NodeJS.Platform[] | null} platforms where it exists (null: everywhere Node runs)
 * @property {string} cpu whose process pays for what: the client's CPU is the lane process's; the server's its own process's
 * @property {(server: import('node:net').Server, context: ListenContext) => Promise<Bound>} [listen] the server side of a stream
 *   transport: bind a fresh net (or http) server whose connections the workload's handler answers
 * @property {(target: { transport?: string, host?: string, port?: number, path?: string }) => string} describe a target for people (no control characters)
 * @property {(target: any, options: { noDelay: boolean }) => import('node:net').NetConnectOpts} [connectOptions]
 *   how net.connect reaches a target of a stream transport
 * @property {(target: any) => { origin: string, socketPath?: string }} [http] where an HTTP client sends a target's requests
 * @property {Channel} [channel] a message transport (no socket: ipc-json, ipc-advanced, worker)
 * @property {'HOST:PORT' | 'PATH'} [target] a server not ours can be measured over it, given by the flag named after
 *   the transport (`run --tcp HOST:PORT`, `--uds PATH`): the flag's argument
 * @property {boolean} [reachesNetns] it reaches a server in another network namespace (--server-netns): an address
 *   over the bridge or a socket file in a directory both sides see
 * @property {'address' | 'unix'} [upstream] how nginx names it in an upstream block, where it carries `upstream`:
 *   `host:port` (the target's host and port) or `unix:PATH` (its path)
 * @property {boolean} [fixedSendBuffer] its send buffer is net.core.wmem_default and never grows (an AF_UNIX stream
 *   socket; loopback TCP's autotunes): with more bytes in flight, its sender waits for the receiver (lib/report/machine.js)
 * @property {boolean} [nagle] Nagle's algorithm applies: TCP_NODELAY is set unless --nagle, and a server says when it is not
 * @property {boolean} [headline] the transport of the headline ratio, UDS/TCP (one transport has it): its
 *   ratio is a comparison's `ratio`, and its column, chart and verdict come first
 */

/**
 * A message transport: a channel Node gives between two of its own event loops (a stream transport: a byte stream
 * between processes). Each trial starts the far end's echo (lib/fixture/message-peer.js); its target has no address.
 * @typedef {object} Channel
 * @property {(options: { startTimeoutMs?: number, entry?: string, cpus?: string }) => Promise<import('../fixture/message-peer.js').Peer>} start
 *   the echo peer, on `cpus` (a taskset list) where given; its module is imported then: the declaration is all that the
 *   command line and servers need
 * @property {(payloads: import('../client/payload.js').Payloads) => import('../client/message-pipeline.js').Codec} codec what a packet travels as
 * @property {boolean} sharesProcess the echo runs in the client's process: charge the client the process less the echo
 * @property {boolean} countsReads whether /proc/PID/io counts the channel's read calls
 */

/** @typedef {{ transport: string, via?: undefined }} MessageTarget a message transport's target: no address, and no proxy in front */

export {};
