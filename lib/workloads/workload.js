/**
 * What a workload declares (types only): its axes and bounds, its figures (columns with units in their names, the
 * primary one and its direction), its fixture (which server answers, whether nginx stands in front) and its client.
 */

/**
 * @typedef {object} Axis a group axis: every workload has a size and a depth, each with its own meaning
 * @property {string} label what it is, e.g. 'packet size', 'connections'
 * @property {string} flag the `run` flag, e.g. '--size', '--connections'
 * @property {string} short before a value in labels: 'depth' (depth 16), 'connections' (connections 10)
 * @property {number} min
 * @property {number} max
 * @property {number} fallback the `run` default
 * @property {boolean} [powerOfTwo] a size in bytes: powers of two only, given as 64, 1k, 64KiB
 * @property {(value: number) => string} [format] the size axis: a value for people, in the workload's own words where it
 *   is not bytes (postgres: `SELECT 1`, `1 lookup`); default formatSize (64 B, 1 MiB). CSV and JSON keep the number
 */

/**
 * @typedef {object} Figure a summarised figure
 * @property {string} label in words, for verdicts: "messages per second"
 * @property {string} short for table headers and chart axes: "msgs/s"
 * @property {string} unit as in summary.csv's `unit` column: 'msgs/s', 'us'
 * @property {'higher' | 'lower'} better
 * @property {boolean} [mechanism] a count of context switches or system calls per unit (lib/core/counters.js):
 *   verdicts name the one that differs most between the transports
 */

/**
 * @typedef {object} TrialSpec what a trial (each of its lane processes) is asked to measure
 * @property {string} workload
 * @property {import('../client/transport.js').Target[]} targets one per transport measured; blocks start with targets[0] (A B C C B A …)
 * @property {number} size
 * @property {number} depth
 * @property {Amount} measure per target
 * @property {Amount} warmup per target
 * @property {number | string} seed
 * @property {boolean} noDelay TCP_NODELAY (TCP only)
 * @property {number} timeoutMs stall timeout
 * @property {number} [maxMs] hard limit for the whole trial (default: the times asked for + 10 min)
 * @property {number} [blockMs] block length to aim for
 * @property {boolean} [test] test mode (sweep --test): fewer and shorter blocks (lib/client/blocks.js TEST_MIN_BLOCKS)
 * @property {boolean} [greeting] echo: expect the 2014 greeting first
 * @property {number} [pipelining] http, proxy: requests in flight per connection
 * @property {boolean} [keepalive] proxy: nginx keeps its upstream connections alive
 * @property {'constant' | 'poisson'} [arrivals] rate: when an open-loop segment's packets are due
 * @property {number | null} [connections] http-rate, proxy-rate, postgres-rate: connections per transport, taking turns in one schedule
 * @property {number} [clients] redis: ioredis connections per transport, each with `depth` operations in flight (default 1)
 * @property {number} [batch] redis: operations per explicit ioredis pipeline() of each in-flight loop (default 1: no pipeline())
 * @property {string} [node_version] the Node version the trial must run on (v20.20.2); default: whichever runs it
 * @property {{ server: string, client: string, mode: string }} [placement] the CPUs (taskset lists) of --pin: a
 *   message transport's echo peer, which the trial starts, goes on the server's; the lane process is already on the client's
 */

/**
 * @typedef {object} TrialContext
 * @property {import('../client/blocks.js').ServerProbe} [probe] the shared server's snapshots
 * @property {AbortSignal} [signal]
 * @property {import('../client/blocks.js').BlockControl} [control] this process holds one lane of a trial whose blocks another process schedules
 * @property {(line: string) => void} [warn] says a line to the person running it, at once: here, that --duration
 *   cannot hold the trial's fewest blocks (lib/client/block-plan.js); a trial or lane process sends it to its parent
 */

/**
 * @typedef {{ packets: number } | { ms: number }} Amount a count of units (packets, chunks, connections,
 *   requests: `packets` for the 2014 spec key) or a duration
 */

/**
 * @typedef {object} TrialResult
 * @property {Record<string, any>[]} records one per target, in the order of spec.targets
 * @property {Record<string, any>[]} blocks one per measured block
 */

/**
 * @typedef {object} Workload
 * @property {string} name
 * @property {string} what one line for help and meta.json
 * @property {string} timed what a block's clock covers, for meta.json
 * @property {{ size: Axis, depth: Axis }} axes
 * @property {(size: number, depth: number, where: string, options?: { clients?: number, batch?: number }) => void} [check] bounds across
 *   axes (bytes in flight), with the options that multiply what is in flight (redis: --clients, --batch)
 * @property {('greeting' | 'pipelining' | 'keepalive' | 'arrivals' | 'connections' | 'clients' | 'batch')[]} options the options it takes
 * @property {boolean} counts whether a count (`--packets`) may replace a duration
 * @property {boolean} [bytesInFlight] its bytes in flight are the size times the depth: the report warns where they pass
 *   UDS's send buffer (lib/report/machine.js sendBufferWarning)
 * @property {readonly string[]} columns a trial row's figures, between `depth` and `status` (the mechanism figures of lib/workloads/common.js last)
 * @property {readonly string[]} blockColumns a block row's figures, after `block`
 * @property {[string, string][]} table [title, column] of the figures `run` shows per trial
 * @property {string} primary the figure the UDS/TCP verdict is about
 * @property {Record<string, Figure>} summary figures summarised in summary.csv, the primary first
 * @property {{ server: 'echo' | 'sink' | 'greeter' | 'http' | 'redis' | 'postgres', proxy: boolean }} fixture which server answers
 *   (redis: a real redis-server, lib/fixture/redis-process.js; postgres: a private PostgreSQL cluster, lib/fixture/postgres.js;
 *   both servers not ours, outside Node: outsideServer in ./index.js); proxy: nginx in front of it
 * @property {(depth: number, options: { connections?: number | null, clients?: number }) => number} [connections] the most connections a trial
 *   opens at once to one listener at this depth, with these options (default 1: one per transport); the server's listen
 *   backlog follows them (lib/core/backlog.js)
 * @property {{ fallback: number, max: number }} [openConnections] an open-loop workload that takes --connections (its
 *   options include 'connections'): how many when not given, and at most
 * @property {{ workload: string, depth: (options: { connections?: number | null }, size: number) => number, delay?: false }} [closed]
 *   an open-loop workload's closed-loop twin on the same server, its depth, and (delay: false) whether the server's
 *   --server-delay is left out of the probe: the capacity `--depths auto` starts from
 * @property {import('../transports/transport.js').Capability} needs what a transport must carry for this workload
 *   (lib/transports/): `messages` (echo), `stream` (a byte stream: stream, connect, http), `upstream` (nginx forwards to it: proxy)
 * @property {{ name: string, value: (trial: Record<string, any>) => number }} [wide] runs-wide.csv's first header cell and value of a trial row (default: the primary figure, its unit in the cell)
 * @property {(summary: Record<string, any>[]) => string[]} [summaryLines] extra lines the printed summary ends with
 * @property {(spec: TrialSpec, context: TrialContext) => Promise<TrialResult>} run the client, in a lane process; it imports
 *   the client's modules (lib/client/, undici, ioredis, pg) when it runs: the declaration is all that the command line
 *   and reports need, and a lane process starts faster without another workload's
 * @property {Reference} [reference] a reference client of the server's own (redis-benchmark), run by a sweep against
 *   the same server after each trial, per transport, into reference.csv
 */

/**
 * @typedef {object} Reference
 * @property {string} client its name, reference.csv's `client` column
 * @property {() => string | null} find its executable, or null: no reference rows
 * @property {(path: string) => { path: string, version: string }} describe its version, for people and meta.json
 * @property {string} missing what to say when it is not found
 * @property {(options: { binary: string, target: import('../client/transport.js').Target, size: number, depth: number, clients?: number, batch?: number, requests: number, prefix?: string[], signal?: AbortSignal }) => Promise<Record<string, unknown>[]>} run
 *   its rows for one target: as many requests as the trial's lane did units (at least 1000); clients, batch: the trial's (redis)
 */

export {};
