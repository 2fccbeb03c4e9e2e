/**
 * Every option of `run` and `sweep`, declared once: flag, spec key, type, default, accepted range, the workloads it
 * applies to and a line of help. Made from it: the commander options (lib/cli.js), a spec file's keys, types and
 * defaults (lib/sweep/spec.js), SPEC_FLAGS, the resume check (lib/sweep/stored-spec.js) and the settings tables of
 * docs/cli.md and sweeps/README.md (npm run docs:settings). Transport and workload names come from their registries.
 */
import { UsageError } from '../core/errors.js';
import { MAX_PACKETS, MAX_RUNS } from '../core/limits.js';
import { MAX_NODES } from '../core/node-executables.js';
import { MAX_WARMUP_MS, formatDuration, formatSize, toDuration, toInteger } from '../core/units.js';
import { BASELINE, HEADLINE, TRANSPORTS, getTransport } from '../transports/index.js';
import { DEFAULT_WORKLOAD, WORKLOADS, WORKLOAD_NAMES, outsideServer } from '../workloads/index.js';

/** @typedef {import('../workloads/workload.js').Workload} Workload */
/** @typedef {'number' | 'string' | 'boolean' | 'null' | 'list'} JsonType */
/** @typedef {{ flag?: string, help?: string, default?: unknown, shown?: string, accepts?: string, doc?: string }} View how a command shows a setting: flag (default `--kebab-key <arg>`), and what it says otherwise than the setting */
/**
 * @typedef {object} Setting
 * @property {string} key spec key and commander's name of the flag (camelCase of it)
 * @property {string} [arg] the flag's argument (`<n>`); none: a switch
 * @property {'integer' | 'time' | 'choice' | 'boolean' | 'other'} kind integer, time and choice values are parsed here
 * @property {{ min: number, max: number }} [range] of an integer, or of a time in ms
 * @property {string[]} [choices]
 * @property {boolean} [nullable] a spec file may give null (not set)
 * @property {JsonType[]} [json] the JSON types a spec file may give (default: by kind); none: not a spec-file key
 * @property {false} [spec] not a spec-file key, though of a kind that would be
 * @property {('number' | 'string')[]} [items] of a list
 * @property {RegExp} [strings] of a list key: the one string a spec file may give instead of the list (sizes: a range,
 *   depths: auto); none: a string is refused (a comma-separated list is the flag's, never a spec file's)
 * @property {string} [example] of a time, for the JSON type in words
 * @property {string} [says] the JSON types in words, where kind and example do not say it
 * @property {string} [accepts] the values accepted, for people (default: by kind)
 * @property {unknown} [default] the spec default
 * @property {string} [shown] the default for people, where not the value itself
 * @property {(w: Workload) => boolean} [applies] the workloads it applies to (default: all)
 * @property {(w: Workload) => string} [otherwise] what a workload it does not apply to takes instead, for the message
 * @property {string} help one line
 * @property {string} [doc] more for the docs (markdown)
 * @property {string} [resolved] the resolved spec's key (default: key, or keyMs for a time)
 * @property {{ sweep?: View, run?: View, serve?: View }} cmd the commands that take it as a flag
 */

/** A key's flag: serverNetns → --server-netns. @param {string} key */
export const toFlag = (key) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** The workloads a predicate picks, by name. @param {(w: Workload) => boolean} pick */
const who = (pick) => WORKLOAD_NAMES.filter((n) => pick(WORKLOADS[n])).join(', ');

/**
 * An axis over the workloads (those whose flag is `flag`): each one's range (`echo: packet size 1 B to 64 MiB; …`),
 * or with `defaults` their defaults (`64 B (echo, http, proxy), 1 MiB (stream), …`; one value alone where all agree).
 * @param {'size' | 'depth'} name
 * @param {string} [flag]
 */
function axisText(name, flag, defaults = false) {
  // a range is what to type: bytes as bytes, an axis in its own words (postgres) as its numbers, its label saying
  // what they mean; a default is a value: in the axis's words (1 lookup)
  const show = (/** @type {import('../workloads/workload.js').Axis} */ a, /** @type {number} */ n) => (name !== 'size' ? String(n) : a.format ? a.format(n) : formatSize(n));
  const typed = (/** @type {import('../workloads/workload.js').Axis} */ a, /** @type {number} */ n) => (name === 'size' && !a.format ? formatSize(n) : String(n));
  const axes = WORKLOAD_NAMES.filter((n) => !flag || WORKLOADS[n].axes[name].flag === flag).map((n) => ({ n, a: WORKLOADS[n].axes[name] }));
  if (!defaults) return axes.map(({ n, a }) => `${n}: ${a.label} ${a.min === a.max ? typed(a, a.min) : `${typed(a, a.min)} to ${typed(a, a.max)}`}`).join('; ');
  const values = [...new Set(axes.map(({ a }) => show(a, a.fallback)))];
  return values.length === 1 ? values[0] : values.map((v) => `${v} (${axes.filter(({ a }) => show(a, a.fallback) === v).map(({ n }) => n).join(', ')})`).join(', ');
}

/** The transports, each with where it runs and which workloads take it: `tcp, uds, uds-abstract (linux; not proxy), …`. */
function transportList() {
  return TRANSPORTS.map((name) => {
    const t = getTransport(name);
    const takers = WORKLOAD_NAMES.filter((n) => t.carries.includes(WORKLOADS[n].needs));
    const others = WORKLOAD_NAMES.filter((n) => !takers.includes(n));
    const notes = [...(t.platforms ?? []).map((p) => p[0].toUpperCase() + p.slice(1)), others.length === 0 ? '' : takers.length < others.length ? `${takers.join(', ')} only` : `not ${others.join(', ')}`].filter(Boolean);
    return notes.length ? `${name} (${notes.join('; ')})` : name;
  }).join(', ');
}

const takes = (/** @type {string} */ option) => (/** @type {Workload} */ w) => w.options.includes(/** @type {any} */ (option));
const isProxy = (/** @type {Workload} */ w) => Boolean(w.fixture.proxy);
/** a server not ours, outside Node (redis, postgres): started by run and sweep, on the host */
const isOutside = (/** @type {Workload} */ w) => outsideServer(w) !== undefined;
/** The open-loop workloads, whose depth axis is the offered rate: those with a closed-loop twin for --depths auto. @param {Workload} w */
export const isOpenLoopWorkload = (w) => Boolean(w.closed);
const depthFlag = (/** @type {string} */ flag) => (/** @type {Workload} */ w) => w.axes.depth.flag === flag;
const takesDepth = (/** @type {Workload} */ w) => `takes ${w.axes.depth.flag} (${w.axes.depth.label})`;

/**
 * The open-loop workloads' --connections (Workload.openConnections), those alike together: their ranges
 * (`http-rate, proxy-rate: 1 to 1024; postgres-rate: 1 to 30`), or with `defaults` their defaults (`10 (http-rate, proxy-rate), 4 (postgres-rate)`).
 */
function openConnectionsText(defaults = false) {
  const show = (/** @type {Workload} */ w) => (defaults ? String(w.openConnections?.fallback) : `1 to ${w.openConnections?.max}`);
  const takers = WORKLOAD_NAMES.map((n) => WORKLOADS[n]).filter((w) => w.openConnections);
  return [...new Set(takers.map(show))].map((v) => {
    const names = takers.filter((w) => show(w) === v).map((w) => w.name).join(', ');
    return defaults ? `${v} (${names})` : `${names}: ${v}`;
  }).join(defaults ? ', ' : '; ');
}
const sweep = { sweep: {} };
const both = { sweep: {}, run: {} };

/** @type {Setting[]} every option, in the order of --help and the docs */
export const LIST = [
  // keys of a spec file (and the flags over them)
  { key: 'description', kind: 'other', json: ['string'], says: 'text', accepts: 'text', default: '', help: 'what the preset is for', cmd: {} },
  { key: 'workload', arg: '<name>', kind: 'other', json: ['string'], says: 'a workload name such as "echo"', accepts: WORKLOAD_NAMES.join(', '), default: DEFAULT_WORKLOAD, help: 'what a trial does', doc: '([workloads.md](docs/workloads.md))', cmd: { sweep: { shown: `the preset's, else ${DEFAULT_WORKLOAD}`, doc: "Without a preset, --workload NAME takes that workload's defaults" }, run: {}, serve: { help: 'whose server', accepts: `${who((w) => !isProxy(w) && !isOutside(w))} (${who(isProxy)}: its app server's; not ${who(isOutside)}, whose servers are not ours)` } } },
  { key: 'sizes', arg: '<list|range>', kind: 'other', json: ['list', 'string'], items: ['number', 'string'], strings: /\.\./, says: 'a list of sizes ([1, 64, "1KiB"]) or a range string ("1..16384")', default: undefined, accepts: `powers of two, a list (1,64,1k) or a range A..B (every power of two: 1..16384, 64B..1MiB) or A..B*4 (×4 steps); ${axisText('size')}`, shown: `required (but ${who((w) => w.axes.size.min === w.axes.size.max)}: its one size)`, help: 'what a trial sends: its size axis', cmd: { sweep: {}, run: { flag: '--size <bytes>', help: 'what a trial sends: its size axis, a power of two such as 64, 1k, 64KiB, 1MiB', accepts: axisText('size'), shown: axisText('size', undefined, true) } } },
  { key: 'depths', arg: '<list>', kind: 'other', json: ['list', 'string'], items: ['number', 'string'], strings: /^auto$/, says: `a list of whole numbers ([1, 16]), or "auto" (${who(isOpenLoopWorkload)})`, default: [1], accepts: `a list (1,16); ${axisText('depth')}; ${who((w) => Boolean(w.check) && !w.options.includes('batch'))}: size × depth at most 256 MiB; ${who(isOpenLoopWorkload)}: or auto, doubling steps from twice the closed-loop capacity, measured first, down to about a sixteenth of it`, shown: axisText('depth', undefined, true), help: 'how much is in flight: the depth axis', doc: '(auto: [openloop.md](docs/openloop.md#knees))', cmd: sweep },
  { key: 'rates', arg: '<list>', kind: 'other', applies: isOpenLoopWorkload, help: 'the rates offered (requests/s to each transport): --depths by its open-loop name, never both; a sweep records them as depths', accepts: 'as --depths: a list (1000,2000,4000) or auto', doc: '(auto: [openloop.md](docs/openloop.md#knees))', cmd: sweep },
  { key: 'depth', arg: '<n>', kind: 'other', applies: depthFlag('--depth'), otherwise: takesDepth, help: 'how much is in flight: the depth axis (1: ping-pong)', accepts: `${axisText('depth', '--depth')}; ${who((w) => Boolean(w.check) && !w.options.includes('batch'))}: size × depth at most 256 MiB`, shown: axisText('depth', '--depth', true), cmd: { run: {} } },
  { key: 'transports', arg: '<list>', kind: 'other', json: ['list'], items: ['string'], says: `a list of transport names (${TRANSPORTS.slice(0, 3).map((t) => JSON.stringify(t)).join(', ')})`, default: [BASELINE, HEADLINE], accepts: `a list of ${transportList()}`, help: `the transports, each measured against ${getTransport(BASELINE).label} in the same trials; each named once, ${BASELINE} among two or more (the baseline of every ratio); one alone is measured with nothing compared`, doc: '([transports.md](docs/transports.md))', cmd: { sweep: {}, run: { flag: '--transport <list>', accepts: `a list of ${transportList()}, e.g. ${TRANSPORTS.slice(0, 3).join(',')}; both is ${BASELINE},${HEADLINE}`, shown: 'both, or those given as --tcp/--uds targets', doc: "uds-abstract needs a server of ours (no --tcp/--uds); the message transports' echo is the trial's own, so they run beside any target" } } },
  { key: 'runs', arg: '<n>', kind: 'integer', range: { min: 1, max: MAX_RUNS }, default: 5, help: 'runs (at least, with --precision): every (size, depth) group once per run, in a seeded random order, each a fresh process', cmd: { sweep: {}, run: { help: 'trials, each measuring every transport; the transport that opens the blocks alternates', default: '1' } } },
  { key: 'packets', arg: '<n>', kind: 'integer', range: { min: 1, max: MAX_PACKETS }, nullable: true, default: undefined, applies: (w) => w.counts, otherwise: () => 'measures a duration', resolved: 'measure', help: 'measured packets per transport per trial (instead of --duration)', cmd: both },
  { key: 'duration', arg: '<time>', kind: 'time', range: { min: 10, max: 3_600_000 }, nullable: true, example: '"500ms", "2s"', default: '200ms', resolved: 'measure', help: 'measured time per transport per trial (instead of --packets), e.g. 500ms, 2s, 1min, 1h; a bare number is seconds', doc: "At least 8 blocks each (2 with --test), however short, of at least the workload's floor ([method.md](docs/method.md#what-is-timed))", cmd: { sweep: {}, run: { default: '1s', doc: "At least 8 blocks each, however short, of at least the workload's floor (echo: 100 × --depth packets; [method.md](docs/method.md#what-is-timed)). When those blocks outlast it (echo at --depth 1024 and 500ms: 8 × 102 400 packets), the run says so on stderr once each transport has run a block, naming --duration, the blocks, about how long the trial will take and the --duration that would hold them, and measures those blocks (not said with --node, whose trial runs in a process of its own)" } } },
  { key: 'warmup', arg: '<n|time>', kind: 'other', json: ['number', 'string'], says: `a packet count from 0 to 10000000 (a JSON number such as 1000) or a time up to ${formatDuration(MAX_WARMUP_MS)} (a JSON string such as "50ms")`, default: '50ms', help: 'warmup per transport per trial, not measured', accepts: `a packet count 0 to 10000000 (a bare number: 1000; ${who((w) => w.counts)} only) or a time up to ${formatDuration(MAX_WARMUP_MS)} (with a unit: 250ms)`, cmd: { sweep: {}, run: { default: '250ms' } } },
  { key: 'seed', arg: '<n>', kind: 'integer', range: { min: 0, max: 2 ** 32 - 1 }, nullable: true, default: null, shown: "the preset's, else random (recorded)", help: 'seed of the trial order and the payloads', cmd: { sweep: {}, run: { help: 'seed of the random payloads', shown: 'random, printed' } } },
  { key: 'pin', arg: '<mode>', kind: 'choice', choices: ['none', 'split', 'same'], accepts: 'split, same or none', default: 'split', help: 'where client and server run, every lane alike, via taskset: split = servers on cpu 0, clients on cpu 1 (as a deployment on 2+ CPUs); same = both on cpu 0; none = the scheduler decides', doc: '([method.md](docs/method.md#equal-conditions-for-every-lane)). Recorded, with a note where taskset is missing or split has one CPU; with same the report gives no wake-up share or warning (no cross-CPU wake-up is paid) and says so once', cmd: both },
  { key: 'noDelay', kind: 'boolean', default: true, help: 'TCP_NODELAY on both ends (false: Nagle on, as in 2014)', cmd: {} },
  { key: 'greeting', kind: 'boolean', default: false, applies: takes('greeting'), help: 'the server writes "start sending now!" on each connection first, and the client checks it (the 2014 server)', cmd: { run: {}, serve: { help: 'write "start sending now!" on each connection (the 2014 server)' } } },
  { key: 'pipelining', arg: '<n>', kind: 'integer', range: { min: 1, max: 256 }, default: 1, applies: takes('pipelining'), help: 'requests in flight per connection', cmd: both },
  { key: 'clients', arg: '<n>', kind: 'integer', range: { min: 1, max: 64 }, default: 1, applies: takes('clients'), help: "ioredis connections per transport, each with --depth operations in flight (redis-benchmark's -c); the server's listen backlog counts them", doc: '([workloads.md](docs/workloads.md#redis--a-real-redis-server-through-ioredis))', cmd: both },
  { key: 'batch', arg: '<n>', kind: 'integer', range: { min: 1, max: 256 }, default: 1, accepts: '1 to 256; value size × depth × clients × batch at most 256 MiB', applies: takes('batch'), help: "operations per explicit ioredis pipeline(): each loop in flight sends its next n (n SETs, each followed by its GET: 2n commands) at once, every reply checked, each op's latency its pipeline's; 1: no pipeline(), each command written as issued", doc: '(redis-benchmark beside it: -P depth × 2 × batch, the commands in flight per connection; [workloads.md](docs/workloads.md#redis--a-real-redis-server-through-ioredis))', cmd: both },
  { key: 'arrivals', arg: '<kind>', kind: 'choice', choices: ['constant', 'poisson'], accepts: 'constant (a packet every 1/rate) or poisson (exponential gaps of mean 1/rate, seeded: the same times for every transport)', default: 'constant', applies: takes('arrivals'), help: 'when the packets of an open-loop segment are due', cmd: both },
  { key: 'keepalive', kind: 'boolean', default: false, applies: takes('keepalive'), help: "nginx keeps its upstream connections alive (HTTP/1.1, an idle pool of 32 per worker); off: a new one per request, as nginx does by default", cmd: both },
  { key: 'connections', arg: '<n>', kind: 'other', json: ['number', 'null'], says: `a JSON number, a whole number (${openConnectionsText()}), or null`, nullable: true, default: null, applies: (w) => depthFlag('--connections')(w) || takes('connections')(w), otherwise: takesDepth, help: 'keep-alive connections per transport (the 2017 wrk run had 10); the server\'s listen backlog is at least this (never below Node\'s 511), with a warning where net.core.somaxconn caps it lower', accepts: `${axisText('depth', '--connections')}; ${openConnectionsText()}; ${who(isProxy)}: at most what nginx can hold within the open-file limit (ulimit -Hn)`, shown: `${axisText('depth', '--connections', true)}; ${openConnectionsText(true)}`, cmd: { sweep: { help: `keep-alive connections per transport of ${who(takes('connections'))}, taking turns in one open-loop schedule (${who(depthFlag('--connections'))} sweep theirs as --depths)`, accepts: openConnectionsText(), shown: openConnectionsText(true) }, run: { doc: `([regimes.md](docs/regimes.md#a-connection-burst-beyond-the-backlog)); ${who(takes('connections'))}: the connections take turns in one schedule ([openloop.md](docs/openloop.md#http-in-open-loop))` } } },
  { key: 'timeout', kind: 'time', arg: '<time>', range: { min: 10, max: 600_000 }, example: '"5s"', default: '5s', help: 'fail a trial when nothing is echoed for this long', cmd: { run: { default: '10s' } } },
  { key: 'trialTimeout', arg: '<time>', kind: 'time', range: { min: 100, max: 7_200_000 }, nullable: true, example: '"10m"', default: null, shown: '(duration + warmup) × transports in a trial + 1 min', help: 'hard limit of one trial, past which it fails (its process is killed if still there 5 s later); more than (duration + warmup) × transports in a trial', cmd: sweep },
  { key: 'pairing', arg: '<mode>', kind: 'choice', choices: ['blocks', 'trials'], accepts: 'blocks or trials', default: 'blocks', help: 'blocks: one trial per (run, size, depth) holds a connection of each transport, each in a lane process of its own, and alternates their blocks A B B A …; trials: one transport per trial, as in 2014 (its ratios pair the trials of a run)', cmd: sweep },
  { key: 'server', arg: '<lifetime>', kind: 'choice', choices: ['sweep', 'round'], accepts: 'sweep (one server throughout) or round (a fresh one per run and per precision round)', default: 'sweep', help: "the server's lifetime; round samples more than one server's conditions", doc: '(see [validation.md](docs/validation.md#calibration))', cmd: sweep },
  { key: 'intervals', arg: '<mode>', kind: 'choice', choices: ['moderated', 'own'], accepts: "moderated (each group's variance moderated across the sweep's groups) or own (each group's runs alone)", default: 'moderated', help: 'UDS/TCP 95 % intervals (summary.csv, verdicts, the precision rule)', doc: '(moderated: empirical Bayes; [method.md](docs/method.md#moderated-variances))', cmd: sweep },
  { key: 'block', arg: '<time>', kind: 'time', range: { min: 1, max: 10_000 }, example: '"10ms"', default: '10ms', help: "length of a measured block to aim for, at the slower transport's warmup rate (at least the workload's minimum block whatever this says)", cmd: sweep },
  { key: 'precision', arg: '<pct>', kind: 'other', json: ['string', 'number', 'null'], says: 'a percentage from 0.1% to 100% ("3%") or a fraction (0.03), or null', accepts: '0.1% to 100% (3% or 0.03)', default: null, shown: 'none', help: 'after the planned runs, add runs to the groups whose UDS/TCP 95 % interval (as in summary.csv; see --intervals) is wider than ±this, round by round, until all meet it, a group has 1000 runs, or --max-time stops it', doc: 'Each round adds one run to the half of them that one more run is expected to bring closest to the target (the Student-t factor falls most at few degrees of freedom)', cmd: sweep },
  { key: 'maxTime', arg: '<time>', kind: 'time', range: { min: 1000, max: 86_400_000 }, nullable: true, example: '"80s"', default: null, shown: 'no limit', help: 'start no extra run for --precision once the sweep (this invocation) would pass this, e.g. 80s, 10min, 2h; the planned runs always run', cmd: sweep },
  { key: 'node', arg: '<list>', kind: 'other', json: [], accepts: `1 to ${MAX_NODES}, each a path or a name on PATH, comma-separated (node,/tmp/n26/node_modules/.bin/node)`, default: null, shown: 'the Node running udsvstcp', help: 'Node executables to measure under, the first the baseline; never from a spec file, nor on --resume from meta.json', doc: 'See [Node versions](#node-versions)', cmd: { sweep: {}, run: { flag: '--node <path>', help: 'the Node executable to run the server and the client trial on; checked as sweep --node checks it', accepts: 'one path or name on PATH (a list is sweep\'s)' } } },
  { key: 'serverNetns', kind: 'boolean', default: false, applies: (w) => !isOutside(w), help: "the server in a network namespace of its own on a bridge, as a container on a bridge network: TCP to its namespace address, UDS through a directory both sides see; needs root and iproute2's ip (docs/containers.md)", cmd: { sweep: {}, run: { doc: 'Not with --tcp/--uds. A run killed by Ctrl-C leaves its namespace and bridge to the next --server-netns start, which removes them' } } },
  { key: 'serverDocker', kind: 'boolean', default: false, applies: (w) => !isOutside(w), help: 'with --server-netns: the server in a real Docker container when a Docker daemon answers (docker info within 5 s), TCP through the port it publishes on 127.0.0.1 with --port-proxy, else to its address on docker0, UDS through a bind-mounted directory; with none, the namespace emulation; the header and meta.json say which ran (docs/containers.md)', cmd: sweep },
  { key: 'portProxy', kind: 'boolean', default: false, applies: (w) => !isOutside(w), help: 'with --server-netns: TCP through a port forwarder on 127.0.0.1, as docker-proxy for a published port; its CPU is charged to the proxy side', cmd: both },
  { key: 'test', kind: 'other', json: [], accepts: 'an object of the keys above', help: "the preset's smallest settings (its \"test\" block), used by --test and by npm test", cmd: { sweep: { help: "run the preset's smallest settings (its \"test\" block), a timed trial at least 2 blocks per transport and 1 warmup block instead of 8 and 3, with no server warm-up: a check that the tool works, not figures", accepts: '' } } },
  // flags only
  { key: 'nginx', arg: '<path>', kind: 'other', applies: isProxy, help: 'the nginx binary; the one that runs is printed (path and nginx -v version)', shown: 'nginx on PATH, else /usr/sbin/nginx', cmd: { sweep: { help: 'the nginx binary, never one a spec file or meta.json names; the one that runs is printed (path and nginx -v version) and recorded in meta.json' }, run: {} } },
  { key: 'redisServer', arg: '<path>', kind: 'other', applies: (w) => w.fixture.server === 'redis', help: 'the redis-server executable; the one that runs is printed (path and version)', shown: 'redis-server on PATH, else /usr/bin/redis-server', cmd: { sweep: { help: 'the redis-server executable, never one a spec file or meta.json names; the one that runs is printed (path and version) and recorded in meta.json' }, run: {} } },
  { key: 'postgresBin', arg: '<dir>', kind: 'other', applies: (w) => w.fixture.server === 'postgres', help: 'the directory of PostgreSQL\'s initdb and postgres, for the private cluster; the one that runs is printed (path and version)', shown: 'PATH, else the highest /usr/lib/postgresql/<major>/bin', cmd: { sweep: { help: 'the directory of PostgreSQL\'s initdb and postgres, never one a spec file or meta.json names; the one that runs is printed (path and version) and recorded in meta.json' }, run: {} } },
  { key: 'tcp', arg: '<host:port>', kind: 'other', accepts: 'a loopback address and port', shown: 'start a server', help: 'a TCP server to measure', cmd: { run: {} } },
  { key: 'uds', arg: '<path>', kind: 'other', accepts: 'a socket path', shown: 'start a server', help: 'a UDS server to measure', cmd: { run: {}, serve: { help: 'socket path', accepts: '', shown: '<server>.sock in a fresh private 0700 directory under the temp dir' } } },
  { key: 'host', arg: '<addr>', kind: 'other', default: '127.0.0.1', help: 'TCP address to bind', accepts: 'a loopback address (127.0.0.0/8, ::1, localhost)', cmd: { serve: {} } },
  { key: 'allowRemote', kind: 'other', help: 'let --host be a non-loopback address (the server is then reachable from other machines)', cmd: { serve: {} } },
  { key: 'port', arg: '<n>', kind: 'integer', range: { min: 0, max: 65535 }, spec: false, default: 0, help: 'TCP port (0: any free port)', cmd: { serve: {} } },
  { key: 'rate', arg: '<n>', kind: 'other', applies: depthFlag('--rate'), otherwise: takesDepth, help: 'requests per second offered to each transport, in open loop: sent on a schedule whether or not earlier answers are back, each timed from when it should have left', accepts: axisText('depth', '--rate'), shown: axisText('depth', '--rate', true), cmd: { run: { doc: '([openloop.md](docs/openloop.md))' } } },
  { key: 'serverWork', arg: '<time>', kind: 'time', range: { min: 0.001, max: 100 }, nullable: true, example: '"50us"', default: null, shown: 'none', applies: (w) => (w.fixture.server === 'echo' && !w.fixture.proxy) || w.fixture.server === 'http', help: "the server spins this much CPU for every packet before echoing it, or every HTTP request before answering it (e.g. 50us, 1ms): a handler's own cost per request, to see how much of a transport's difference is left beside it", doc: '(the echo server learns the packet size from the one size of the run or sweep: a sweep of several sizes is refused; [openloop.md](docs/openloop.md#server-work-per-request))', cmd: both },
  { key: 'serverDelay', arg: '<time>', kind: 'time', range: { min: 1, max: 10_000 }, nullable: true, example: '"5ms"', default: null, shown: 'none', applies: (w) => (w.fixture.server === 'echo' && !w.fixture.proxy) || w.fixture.server === 'http', help: "the server waits this long, asynchronously (a timer: whole milliseconds), before echoing each read or answering each HTTP request, as a handler awaiting a database would: time that costs it no CPU", doc: '([openloop.md](docs/openloop.md#server-work-per-request))', cmd: both },
  { key: 'nagle', kind: 'other', help: 'Nagle on instead of TCP_NODELAY, on client and server sockets (the server started here follows); printed in the header line', shown: 'noDelay', cmd: { run: {}, serve: { help: 'leave Nagle on for accepted TCP connections' } } },
  { key: 'probe', kind: 'other', help: 'the wake-up probe (about 0.5 s: 1-byte round trips with both ends on one CPU and on two; meta.json machine.wakeup)', cmd: { run: { help: 'first run the wake-up probe (about 0.5 s: 1-byte round trips with both ends on one CPU and on two) and, at depth 1, say how much of a round trip is waking an idle CPU', shown: 'off' }, sweep: { flag: '--no-probe', help: 'skip the wake-up probe at the start (about 0.5 s before the server starts: 1-byte round trips with both ends on one CPU and on two; meta.json machine.wakeup)' } } },
  { key: 'report', kind: 'other', help: 'the report files', cmd: { sweep: { flag: '--no-report', help: 'write the measurement files (trials.csv, blocks.csv, summary.csv, runs-wide.csv, meta.json) and print the summary and verdicts, but not summary.md, the charts, results.xlsx and report.html (udsvstcp report DIR writes them later)' } } },
  { key: 'out', arg: '<dir>', kind: 'other', help: 'results directory', shown: './udsvstcp-results/<UTC time>-<preset>/', cmd: sweep },
  { key: 'resume', arg: '<dir>', kind: 'other', help: 'run only the trials missing from DIR/trials.csv, with the spec recorded there; flags given must equal it', cmd: sweep },
  { key: 'retryFailed', kind: 'other', help: 'with --resume: measure failed trials again (their old rows stay, marked superseded)', cmd: sweep },
  { key: 'allowSharedDir', kind: 'other', help: 'use a results directory (or a file in it) that another user owns or that group or others may write; refused otherwise (exit 2, naming the path and why), as ssh refuses such a ~/.ssh', cmd: sweep },
  { key: 'quiet', kind: 'other', help: 'nothing on stderr but errors and warnings: why each failed trial failed, the report\'s warnings (no progress, summary or verdicts)', cmd: sweep },
  { key: 'progress', kind: 'other', help: 'no per-trial progress on stderr but a line per failed trial saying why (the summary and verdicts still print)', cmd: { sweep: { flag: '--no-progress' } } },
  { key: 'json', kind: 'other', help: 'print the summary as one JSON document on stdout (the same document, to the digit, as udsvstcp report --json on the results directory)', cmd: { sweep: { doc: 'Its dir is the results directory\'s absolute path' }, run: { help: 'one JSON record per transport per trial, a line each, on stdout', doc: '([the record](docs/results.md#the-result-record))', shown: 'off' }, serve: { help: 'print {"tcp":{host,port},"uds":{path},"uds-abstract":{path}} on stdout once all listen (uds-abstract on Linux only; its path starts with a NUL byte, \\u0000 in JSON)', shown: '' } } },
];

/** Each option by key. */
export const SETTINGS = /** @type {Record<string, Setting>} */ (Object.freeze(Object.fromEntries(LIST.map((s) => [s.key, s]))));

const JSON_TYPES = /** @type {Record<Setting['kind'], JsonType[]>} */ ({ integer: ['number'], time: ['string', 'number'], choice: ['string'], boolean: ['boolean'], other: [] });

/** Keys a spec file may hold, in order (`node` is recorded in meta.json, never read from a spec file). */
export const SPEC_KEYS = LIST.filter((s) => s.spec !== false && (s.json || s.kind !== 'other')).map((s) => s.key);

/** The defaults of the spec keys that have one (not description and test). */
export const DEFAULTS = Object.freeze(Object.fromEntries(SPEC_KEYS.filter((k) => k !== 'description' && k !== 'test').map((k) => [k, SETTINGS[k].default])));

/** The sweep flags that override spec keys (commander's names: the keys). */
export const SPEC_FLAGS = SPEC_KEYS.filter((k) => SETTINGS[k].cmd.sweep && k !== 'test');

/**
 * What a spec file's key takes, in words, JSON type and range: `a JSON number, a whole number from 1 to 1000`.
 * @param {Setting} s
 */
function jsonTypeText(s) {
  const orNull = s.nullable && s.default === null ? ', or null' : '';
  if (s.says) return s.says;
  if (s.kind === 'integer') return `a JSON number, a whole number from ${s.range?.min} to ${s.range?.max}${orNull}`;
  if (s.kind === 'time') return `a duration from ${acceptsOf(s)}, a JSON string with a unit (${s.example}) or a JSON number of seconds${orNull}`;
  if (s.kind === 'boolean') return 'true or false';
  return `${s.choices?.map((c) => JSON.stringify(c)).join(', ').replace(/, ([^,]*)$/, ' or $1')}${orNull}`;
}

/**
 * The JSON types of a spec file's keys, checked before their values are parsed, so `"runs": [3]` is refused naming the
 * key instead of read through String(). Keys of kind other without `json` (node, test) are checked elsewhere.
 * @param {Record<string, unknown>} layer keys of a spec file (or its test block)
 * @param {(key: string) => string} name how to name a key in a message, e.g. `x.json "runs"`
 */
export function checkJsonTypes(layer, name) {
  const typeOf = (/** @type {unknown} */ v) => (v === null ? 'null' : Array.isArray(v) ? 'list' : typeof v);
  for (const [key, value] of Object.entries(layer)) {
    const s = SETTINGS[key];
    const types = /** @type {string[] | undefined} */ (s?.json ?? JSON_TYPES[s?.kind]);
    if (!types?.length || value === undefined) continue;
    // a list key takes a list: a string only where it is one of its own (a range of sizes, auto), never "1,16"
    const listAsString = typeof value === 'string' && types.includes('list') && !s.strings?.test(value);
    if (!listAsString && (types.includes(typeOf(value)) || (s.nullable && value === null)) && (!Array.isArray(value) || value.every((v) => (/** @type {string[]} */ (s.items ?? [])).includes(typeOf(v))))) continue;
    const given = listAsString ? `the JSON string ${JSON.stringify(value)}${value.includes(',') ? ` (a comma-separated list is for the flag ${toFlag(key)})` : ''}` : JSON.stringify(value);
    throw new UsageError(`${name(key)} must be ${jsonTypeText(s)}; got ${given}`, 'ERR_SPEC_TYPE');
  }
}

/**
 * The accepted values of a setting, for people: `1 to 1000`, `1 ms to 10 s`.
 * @param {Setting} s
 * @param {View} [view]
 */
export function acceptsOf(s, view = {}) {
  if (view.accepts !== undefined) return view.accepts;
  if (s.accepts !== undefined) return s.accepts;
  if (s.kind === 'integer' && s.range) return `${s.range.min} to ${s.range.max}`;
  if (s.kind === 'time' && s.range) return `${formatDuration(s.range.min)} to ${formatDuration(s.range.max)}`;
  return '';
}

/**
 * A value of an integer, time, choice or boolean setting, or a UsageError naming it and the accepted range.
 * @param {string} key
 * @param {unknown} value
 * @param {(key: string) => string} [nameOf] how to name the key in the message (default: its flag)
 * @returns {any}
 */
export function parseSetting(key, value, nameOf = toFlag) {
  const s = SETTINGS[key];
  const name = nameOf(key);
  // the value as given (a spec file's 1.5 a number, not "1.5"), for the message
  if (s.kind === 'integer') return toInteger(/** @type {string | number} */ (value), name, s.range);
  if (s.kind === 'time') return toDuration(/** @type {string | number} */ (value), name, s.range);
  if (s.kind === 'boolean') {
    if (typeof value !== 'boolean') throw new UsageError(`${name} must be true or false; got ${JSON.stringify(value)}`);
    return value;
  }
  if (s.kind === 'choice' && s.choices?.includes(String(value))) return String(value);
  if (s.kind === 'choice') throw new UsageError(`${name} must be ${s.accepts}; got ${JSON.stringify(value)}`);
  throw new TypeError(`setting ${key} is parsed by its own rule`);
}

/**
 * Refuse a setting given for a workload it does not apply to, naming it and the workloads it applies to.
 * @param {Workload} workload
 * @param {Record<string, unknown>} given by key (undefined, null or false: not given)
 * @param {(key: string) => string} name the flag or key, for the message
 */
export function checkApplies(workload, given, name) {
  for (const { key, applies, otherwise } of LIST) {
    if (!applies || given[key] === undefined || given[key] === null || given[key] === false || applies(workload)) continue;
    const takers = WORKLOAD_NAMES.filter((n) => applies(WORKLOADS[n]));
    throw new UsageError(`${name(key)} applies to the ${takers.join(', ').replace(/, ([^,]*)$/, ' and $1')} workload${takers.length === 1 ? '' : 's'}${otherwise ? `; ${workload.name} ${otherwise(workload)}` : `, not ${workload.name}`}`);
  }
}

/**
 * A setting as a command shows it: flag, help (workloads first), accepted values, default.
 * @param {Setting} s
 * @param {'sweep' | 'run' | 'serve'} command
 */
export function viewOf(s, command) {
  const view = s.cmd[command] ?? {};
  const flag = view.flag ?? `${toFlag(s.key)}${s.arg ? ` ${s.arg}` : ''}`;
  const workloads = s.applies && who(s.applies) !== WORKLOAD_NAMES.join(', ') ? who(s.applies) : '';
  const value = 'default' in view ? view.default : s.default;
  const fmt = (/** @type {unknown} */ v) => (v === undefined || v === null || v === '' ? '' : Array.isArray(v) ? v.join(',') : String(v));
  const shown = view.shown ?? ('default' in view ? fmt(value) : s.shown ?? (s.arg ? fmt(value) : ''));
  return { flag, help: view.help ?? s.help, workloads, accepts: acceptsOf(s, view), shown: flag.startsWith('--no-') ? '' : shown, doc: view.doc ?? s.doc ?? '', default: value };
}

/**
 * The commander options of a command, in the table's order.
 * @param {'sweep' | 'run' | 'serve'} command
 */
export function commandOptions(command) {
  return LIST.filter((s) => s.cmd[command]).map((s) => {
    const v = viewOf(s, command);
    const key = command === 'sweep' && SPEC_FLAGS.includes(s.key) && s.key !== 'node' ? `spec key ${s.key}` : '';
    const tail = [key, v.shown ? `default ${v.shown}` : ''].filter(Boolean).join(', ');
    return { flags: v.flag, description: `${v.workloads ? `${v.workloads}: ` : ''}${v.help}${v.accepts ? `; ${v.accepts}` : ''}${tail ? ` (${tail})` : ''}` };
  });
}

/**
 * A setting's default as a command takes it.
 * @param {string} key
 * @param {'sweep' | 'run' | 'serve'} command
 */
export const defaultOf = (key, command) => viewOf(SETTINGS[key], command).default;

/**
 * A command's option keys as commander names them (`--server-netns` → serverNetns): the keys its library call takes.
 * @param {'sweep' | 'run' | 'serve'} command
 */
export const optionKeys = (command) => commandOptions(command).map(({ flags }) => flags.split(' ')[0].replace(/^--(no-)?/, '').replace(/-([a-z])/g, (_, c) => c.toUpperCase()));

/**
 * Refuse a library call's option that its command does not take.
 * @param {string} command
 * @param {object} given
 * @param {readonly string[]} keys
 * @param {readonly string[]} [listed] the keys the message lists
 */
export function checkOptionKeys(command, given, keys, listed = keys) {
  for (const key of Object.keys(given)) if (!keys.includes(key)) throw new UsageError(`unknown ${command} option "${key}"; options: ${listed.join(', ')}`);
}
