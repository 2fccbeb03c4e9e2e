/**
 * The command line: parse with commander, resolve and validate options,
 * call into lib/, print, and return an exit code (0 ok, 1 a run failed,
 * 2 bad input). Nothing here calls process.exit(). A command's module (and
 * the libraries it needs) is loaded only when that command runs, so
 * --version and --help start about as fast as node itself.
 */
import { Chalk, chalkStderr } from 'chalk';
import { Command, CommanderError } from 'commander';
import { version } from './core/environment.js';
import { describeResourceError } from './core/resources.js';
import { printable, printableLines } from './core/text.js';
import { addResultsCommands } from './commands/results-cli.js';
import { PROBE_TIMEOUT_MS } from './fixture/probe.js';
import { MAX_FAILED_IN_A_ROW, MAX_REPLACEMENTS } from './sweep/fixture-keeper.js';
import { listPresets } from './sweep/spec.js';
import { DEFAULT_WORKLOAD, WORKLOADS, WORKLOAD_NAMES } from './workloads/index.js';

/**
 * @typedef {object} Io
 * @property {NodeJS.WritableStream & { isTTY?: boolean }} stdout
 * @property {NodeJS.WritableStream & { isTTY?: boolean }} stderr
 * @property {NodeJS.ProcessEnv} env
 */

/**
 * Colour only where the stream is a terminal, NO_COLOR honoured, FORCE_COLOR obeyed.
 * @param {Io} io
 */
function chalkFor(io) {
  if ('NO_COLOR' in io.env && io.env.NO_COLOR !== '') return new Chalk({ level: 0 });
  if ('FORCE_COLOR' in io.env) return new Chalk({ level: chalkStderr.level });
  return new Chalk({ level: io.stderr.isTTY ? chalkStderr.level || 1 : 0 });
}

/**
 * @param {string[]} argv arguments after the program name
 * @param {Io} [io]
 * @returns {Promise<number>}
 */
export async function main(argv, io = { stdout: process.stdout, stderr: process.stderr, env: process.env }) {
  const chalk = chalkFor(io);
  const out = { ...io, chalk };
  let code = 0;

  const program = new Command('udsvstcp')
    .description('Unix domain socket vs loopback TCP, measured in Node.js: echo server, pipelined verifying client, sweeps into CSV.')
    .version(version())
    .option('--debug', 'print stack traces of errors')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(`udsvstcp: ${printable(text.trim().replace(/\s*\n\s*/g, ' '))}\n`), // one line
    });

  program.command('serve')
    .description('run a server (the echo server by default) on a TCP port and a Unix domain socket at once, until Ctrl-C')
    .option('--workload <name>', `whose server: ${WORKLOAD_NAMES.filter((n) => !WORKLOADS[n].fixture.proxy).join(', ')} (${WORKLOAD_NAMES.filter((n) => WORKLOADS[n].fixture.proxy).join(', ')}: its app server's)`, DEFAULT_WORKLOAD)
    .option('--host <addr>', 'TCP address to bind: a loopback address (127.0.0.0/8, ::1, localhost)', '127.0.0.1')
    .option('--allow-remote', 'let --host be a non-loopback address (the server is then reachable from other machines)')
    .option('--port <n>', 'TCP port, 0 to 65535 (0 = any free port)', '0')
    .option('--uds <path>', 'socket path (default: <server>.sock in a fresh private 0700 directory under the temp dir)')
    .option('--greeting', 'write "start sending now!" on each connection (the 2014 server)')
    .option('--nagle', 'leave Nagle on for accepted TCP connections (default: noDelay)')
    .option('--json', 'print {"tcp":{host,port},"uds":{path},"uds-abstract":{path}} on stdout once all listen (uds-abstract on Linux only; its path starts with a NUL byte, \\u0000 in JSON)')
    .addHelpText('after', `
A stale socket file (nobody answers on it) is replaced; a live one, or a path
that is not a socket, is refused and left untouched. SIGINT, SIGTERM and SIGHUP
close the connections, remove the socket file if it is still the one this
server created (a path replaced meanwhile is left alone and reported), and
exit 0. Try it: nc -U <path>

Example:
  udsvstcp serve --json`)
    .action(async (opts) => {
      const { serve } = await import('./commands/serve.js');
      code = await serve(opts, out);
    });

  program.command('run')
    .description('measure one workload over TCP and UDS, both transports in alternating blocks of one trial (default: echo round trips, pipelined and verified)')
    .option('--workload <name>', `${WORKLOAD_NAMES.join(', ')} (default echo)`)
    .option('--tcp <host:port>', 'TCP server to measure (loopback only)')
    .option('--uds <path>', 'UDS server to measure')
    .option('--transport <list>', 'a list of transports: tcp, uds, uds-abstract (Linux), ipc-json, ipc-advanced, worker (echo only) — e.g. tcp,uds,uds-abstract; both is tcp,uds (default: both, or those given). Each is measured against TCP, so two or more include tcp; each named once; one alone is measured with nothing compared')
    .option('--size <bytes>', 'echo packet size (default 64), stream chunk size (default 1MiB), http body size (default 64): a power of two, e.g. 64, 1k, 64KiB, 1MiB')
    .option('--depth <n>', 'echo: packets in flight, 1 (ping-pong) to 65536, size × depth at most 256 MiB (default 1); connect: connections at once')
    .option('--connections <n>', 'http, proxy: keep-alive connections, 1 to 1024 (default 10, as the 2017 wrk run); proxy: at most what nginx can hold within the open-file limit (ulimit -Hn)')
    .option('--pipelining <n>', 'http, proxy: requests in flight per connection, 1 to 256 (default 1)')
    .option('--keepalive', 'proxy: nginx keeps its upstream connections alive (default: a new one per request, as nginx does by default)')
    .option('--nginx <path>', 'proxy: the nginx binary (default: nginx on PATH or in /usr/sbin)')
    .option('--server-netns', 'run the server in a network namespace of its own on a bridge, as a container on a bridge network (needs root and iproute2\'s ip; docs/containers.md)')
    .option('--port-proxy', 'with --server-netns: TCP through a port forwarder on 127.0.0.1, as docker-proxy for a published port')
    .option('--node <path>', 'the Node executable (a path or a name on PATH) to run the server and the client trial on (default: the Node running udsvstcp)')
    .option('--packets <n>', 'measured packets per transport per trial, 1 to 20000000 (instead of --duration)')
    .option('--duration <time>', 'measured time per transport per trial: 500ms, 2s, 1m (default 1s)')
    .option('--warmup <n|time>', 'warmup per transport before measuring: a packet count (1000) or a time (250ms)', '250ms')
    .option('--seed <n>', 'seed of the random payloads, 0 to 4294967295 (default: random, printed)')
    .option('--nagle', 'leave Nagle on (default: TCP_NODELAY on client and server sockets; the server started here follows)')
    .option('--timeout <time>', 'fail a trial when nothing is echoed for this long', '10s')
    .option('--runs <n>', 'trials, each measuring every transport; the transport that opens the blocks alternates, 1 to 1000', '1')
    .option('--greeting', 'expect the 2014 greeting before echoing (the server started here sends it)')
    .option('--json', 'one JSON object per transport per trial, a line each, on stdout')
    .option('--pin <mode>', 'where client and server run, every lane alike: split (server cpu 0, client cpu 1; the default, as a deployment on 2+ CPUs), same (both cpu 0) or none (the scheduler decides), via taskset', 'split')
    .option('--probe', 'first run the wake-up probe (about 0.5 s: 1-byte round trips with both ends on one CPU and on two) and, at depth 1, say how much of a round trip is waking an idle CPU')
    .addHelpText('after', `
With neither --tcp nor --uds, the workload's server is started in a child
process (and nginx in front of it for proxy) and stopped afterwards, and its
CPU time is charged to each block. With several transports, a trial alternates
blocks A B B A … between a TCP and a UDS connection (A B C C B A … with three),
and the last lines give each transport against TCP, UDS/TCP first, with a 95 %
interval (across trials with --runs 2 or more; from one trial's blocks otherwise).
The server listens on TCP, UDS and (Linux) an abstract socket at once.
Transports: tcp, uds, uds-abstract (Linux; proxy takes tcp and uds only); echo also takes
ipc-json, ipc-advanced (a forked child on the child_process IPC channel) and worker (a worker thread).

Workloads: echo (every echoed byte checked; msgs/s, RTT, CPU µs per message),
stream (one-way chunks counted at the receiver; GB/s, CPU ms per GB), connect
(connect, read "Hello there!", close; conns/s, connect time), http (keep-alive
GETs of a --size body; req/s, latency), proxy (http through a real nginx whose
upstream is TCP or UDS; nginx's CPU per request too). A flag of another
workload is refused, naming it (exit 2).

Exit codes: 0 every trial ok; 1 a trial failed; 2 bad input (nothing started);
130, 143, 129 interrupted by SIGINT (Ctrl-C), SIGTERM or SIGHUP: the run ends
at once, nothing more printed, and the server it started stops.

Examples:
  udsvstcp run --size 64 --depth 1
  udsvstcp run --workload http --connections 10 --duration 2s
  udsvstcp run --transport tcp,uds,uds-abstract --size 1KiB --depth 4
  udsvstcp run --tcp 127.0.0.1:5555 --uds /tmp/x/echo.sock --size 1k --depth 16 --packets 100000 --json`)
    .action(async (opts) => {
      const { run } = await import('./commands/run.js');
      code = await run(opts, out);
    });

  program.command('sweep')
    .description('the main job: repeated trials in separate processes, TCP and UDS in alternating blocks, into CSV, charts and a report (default preset: default)')
    .argument('[preset]', `a preset in sweeps/ (${listPresets().join(', ')}) or a path to a .json spec`)
    .option('--sizes <list|range>', 'packet sizes: 1,64,1k or a range of powers of two 1..16384, 64B..1MiB, 1..64KiB*4')
    .option('--depths <list>', 'packets in flight, each 1 to 65536, e.g. 1,16')
    .option('--transports <list>', 'tcp,uds (default), or any list of tcp, uds, uds-abstract (Linux), ipc-json, ipc-advanced, worker (echo only): each against TCP, in the same trials, so two or more include tcp; each named once; one alone is measured with nothing compared')
    .option('--runs <n>', 'runs (at least); every (size, depth) group once per run, 1 to 1000')
    .option('--precision <pct>', 'add runs to groups whose UDS/TCP 95 % interval (as in summary.csv; see --intervals) is wider than ±pct (0.1% to 100%, e.g. 3%)')
    .option('--max-time <time>', 'start no extra run for --precision once the sweep would pass this (e.g. 80s, 10m)')
    .option('--pairing <mode>', 'blocks (the transports alternate in one trial, each lane in a process of its own) or trials (one transport per trial, as in 2014)')
    .option('--workload <name>', `${WORKLOAD_NAMES.join(', ')} (default: the preset's, echo)`)
    .option('--pipelining <n>', 'http, proxy: requests in flight per connection, 1 to 256')
    .option('--keepalive', 'proxy: nginx keeps its upstream connections alive')
    .option('--nginx <path>', 'proxy: the nginx binary (default: nginx on PATH or in /usr/sbin; never one a spec file or meta.json names)')
    .option('--node <list>', 'Node executables to measure under, each a path or a name on PATH, the first the baseline (e.g. node,/tmp/n26/node_modules/.bin/node); default: the Node running udsvstcp; on --resume, never one meta.json names')
    .option('--server <lifetime>', 'sweep (one server throughout) or round (a fresh one for each run and each precision round)')
    .option('--server-netns', 'run the server in a network namespace of its own on a bridge, as a container on a bridge network (needs root and iproute2\'s ip): TCP to its namespace address, UDS through a directory both sides see; docs/containers.md')
    .option('--port-proxy', 'with --server-netns: TCP through a port forwarder on 127.0.0.1, as docker-proxy for a published port')
    .option('--intervals <mode>', 'UDS/TCP intervals: moderated (each group\'s variance moderated across the sweep\'s groups; the default) or own (each group\'s runs alone)')
    .option('--block <time>', 'length of a measured block to aim for, 1ms to 10s (default 10ms)')
    .option('--packets <n>', 'measured packets per transport per trial (instead of --duration)')
    .option('--duration <time>', 'measured time per transport per trial (instead of --packets)')
    .option('--warmup <n|time>', 'warmup per transport per trial: packets or time')
    .option('--seed <n>', "seed of the trial order and payloads (default: the preset's, else random; recorded)")
    .option('--pin <mode>', 'where client and server run, every lane alike: split (server cpu 0, client cpu 1; the default), same (both cpu 0) or none, via taskset')
    .option('--trial-timeout <time>', 'hard limit of one trial, past which it fails (its process is killed if still there 5 s later; default: (duration + warmup) × transports in a trial + 1 min)')
    .option('--out <dir>', 'results directory (default ./udsvstcp-results/<UTC time>-<preset>/)')
    .option('--resume <dir>', 'run only the trials missing from DIR/trials.csv, with the spec recorded there')
    .option('--retry-failed', 'with --resume: measure failed trials again (their old rows stay, marked superseded)')
    .option('--allow-shared-dir', 'use a results directory (or files in it) that another user owns or that group or others may write; refused otherwise, as ssh refuses such a ~/.ssh')
    .option('--test', "run the preset's smallest settings (its \"test\" block)")
    .option('--no-probe', 'skip the wake-up probe at the start (about 0.5 s: 1-byte round trips with both ends on one CPU and on two; meta.json machine.wakeup)')
    .option('--quiet', 'nothing on stderr but errors and warnings (no progress, summary or verdicts)')
    .option('--no-progress', 'no per-trial progress on stderr (the summary and verdicts still print)')
    .option('--json', 'print the summary as one JSON document on stdout (the same document as `udsvstcp report --json`)')
    .addHelpText('after', `
Each trial process measures one (size, depth) group of one workload (--workload,
or the preset's: echo, stream, connect, http or proxy; without a preset,
--workload NAME takes that workload's defaults): it holds a TCP and a UDS
connection (or pool) to the same server and alternates measured blocks A B B A …,
each starting and ending with nothing in flight. Runs are fresh processes;
the UDS/TCP interval of a group is taken across its runs, its variance
moderated across the sweep's groups (empirical Bayes; summary.csv ci95_df;
--intervals own: each group's runs alone).

Writes trials.csv (one row per trial and transport, appended as each ends),
blocks.csv (every measured block), summary.csv (per size/depth/transport
statistics and UDS/TCP ratios with 95 % CIs), runs-wide.csv (the 2014
layout) and meta.json (spec, seed, design, environment, and the machine facts:
socket-buffer and TCP sysctls, virtualisation, idle settings and a wake-up
probe), then the report:
summary.md, chart-*.svg, report.html (offline) and results.xlsx, with the
verdicts printed (see: udsvstcp report --help).

After a failed trial the server is checked: its socket file still its own,
and a short exchange answered on each transport within ${PROBE_TIMEOUT_MS / 1000} s (through
nginx for proxy). One that fails is killed and replaced (at most ${MAX_REPLACEMENTS} times
per sweep or resume; meta.json fixture_replacements says why). Failed rows
are bounded: the sweep stops (meta.json failed; --resume continues) after ${MAX_FAILED_IN_A_ROW}
failed trials in a row or a ${MAX_REPLACEMENTS + 1}th replacement, and --precision adds no
run to a group whose last trial failed.

Keys and defaults of presets: sweeps/README.md. Ctrl-C (or SIGTERM, SIGHUP)
keeps what was measured and prints the --resume command, with the --node list
of a --node sweep (exit 130, 143, 129);
a second one kills the server at once. One sweep at a time per
directory (DIR/sweep.lock). On resume, a last trials.csv row cut short is cut
back, and flags must equal those recorded in DIR/meta.json. A results
directory is data: nginx comes from --nginx or PATH, never from meta.json
(a change from the recorded one is noted); the one that runs is printed.

--server-netns makes a network namespace, a bridge and a veth pair (names
udsvstcp-PID-…, uvtb-…, uvth-…) and removes them when the sweep ends, fails
or is interrupted; those a killed sweep left are removed by the next
--server-netns sweep (and by --resume, from DIR/fixture.json).

stdout holds data only: the results directory's path, alone on a line, when
the sweep ends (also with --quiet), or with --json the summary document;
everything for people goes to stderr.

Exit codes: 0 every trial ok; 1 a trial failed or a fatal error (meta.json
says failed); 2 bad input (nothing started); 130, 143, 129 interrupted.

Examples:
  udsvstcp sweep
  udsvstcp sweep quick --pin split
  udsvstcp sweep --precision 2% --max-time 5m
  udsvstcp sweep nicmcd-2014 --runs 3
  udsvstcp sweep --sizes 64B..64KiB --depths 1,64 --runs 10 --out results/mine`)
    .action(async (preset, opts) => {
      const { sweep } = await import('./commands/sweep.js');
      code = await sweep(preset, opts, out);
    });

  addResultsCommands(program, out, (c) => { code = c; });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2; // commander printed its one line
    const err = /** @type {Error & { exitCode?: number, hint?: string }} */ (error);
    // one line: EMFILE or out of memory says which limit; a message may quote a path, a cell or an argument, so its controls (newlines too) are shown escaped
    io.stderr.write(`udsvstcp: error: ${printable(describeResourceError(err) ?? err.message)}\n`);
    if (err.hint) io.stderr.write(`${printableLines(err.hint)}\n`);
    if (program.opts().debug && err.stack) io.stderr.write(`${printableLines(err.stack)}\n`);
    return err.exitCode ?? 1;
  }
}
