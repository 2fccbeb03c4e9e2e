/**
 * The command line: parse with commander, resolve and validate, call into lib/, print, and return an exit code (0 ok,
 * 1 a run failed, 2 bad input); nothing here calls process.exit(). A command's module (and its libraries) loads only when
 * that command runs, so --version and --help start about as fast as node itself.
 */
import { Command, CommanderError } from 'commander';
import { version } from './core/environment.js';
import { describeResourceError } from './core/resources.js';
import { printable, printableLines } from './core/text.js';
import { PROBE_TIMEOUT_MS } from './fixture/probe.js';
import { MAX_FAILED_IN_A_ROW, MAX_REPLACEMENTS } from './sweep/fixture-keeper.js';
import { listPresets } from './sweep/presets.js';
import { WORKLOADS, WORKLOAD_NAMES } from './workloads/index.js';
import { commandOptions } from './options/settings.js';
import { TRANSPORTS, getTransport } from './transports/index.js';

/**
 * @typedef {object} Io
 * @property {NodeJS.WritableStream & { isTTY?: boolean }} stdout
 * @property {NodeJS.WritableStream & { isTTY?: boolean }} stderr
 * @property {NodeJS.ProcessEnv} env
 */

/**
 * Add a command's options from the settings table (lib/options/settings.js).
 * @param {Command} command
 * @param {'run' | 'sweep' | 'serve'} name
 */
function withOptions(command, name) {
  for (const { flags, description } of commandOptions(name)) command.option(flags, description);
  return command;
}

/** The transports and workloads, from their registries, a line each, the descriptions in one column two spaces after the longest name. */
function catalogue() {
  const width = Math.max(...[...TRANSPORTS, ...WORKLOAD_NAMES].map((name) => name.length)) + 2;
  const line = (/** @type {string} */ name, /** @type {string} */ what) => `  ${name.padEnd(width)}${what}`;
  return ['Transports:', ...TRANSPORTS.map((t) => line(t, getTransport(t).what)), '', 'Workloads:',
    ...WORKLOAD_NAMES.map((n) => line(n, `${WORKLOADS[n].what} (${Object.values(WORKLOADS[n].summary).filter((f) => !f.mechanism).map((f) => f.short).join(', ')})`))].join('\n');
}

/**
 * @param {string[]} argv arguments after the program name
 * @param {Io} [io]
 */
export async function main(argv, io = { stdout: process.stdout, stderr: process.stderr, env: process.env }) {
  let code = 0;
  /**
   * A command's action: NAME() of lib/commands/NAME.js with commander's arguments and options (it passes the command
   * last) and `out`, the streams and a chalk (loaded here: --help, --version and commander's refusals need none).
   * @param {'serve' | 'run' | 'sweep' | 'report' | 'compare'} name
   */
  const runCommand = (name) => async (/** @type {unknown[]} */ ...args) => {
    const [module, { Chalk, chalkStderr }] = await Promise.all([import(`./commands/${name}.js`), import('chalk')]);
    // colour only where stderr is a terminal, NO_COLOR honoured, FORCE_COLOR obeyed
    const noColor = 'NO_COLOR' in io.env && io.env.NO_COLOR !== '';
    const chalk = new Chalk({ level: noColor ? 0 : 'FORCE_COLOR' in io.env ? chalkStderr.level : io.stderr.isTTY ? chalkStderr.level || 1 : 0 });
    code = await module[name](...args.slice(0, -1), { ...io, chalk });
  };

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

  withOptions(program.command('serve'), 'serve')
    .description('run a server (the echo server by default) on a TCP port and a Unix domain socket at once, until Ctrl-C')
    .addHelpText('after', `
A stale socket file (nobody answers on it) is replaced; a live one, or a path
that is not a socket, is refused and left untouched. SIGINT, SIGTERM and SIGHUP
close the connections, remove the socket file if it is still the one this
server created (a path replaced meanwhile is left alone and reported), and
exit 0. Try it: nc -U <path>

Example:
  udsvstcp serve --json`)
    .action(runCommand('serve'));

  withOptions(program.command('run'), 'run')
    .description('measure one workload over TCP and UDS, both transports in alternating blocks of one trial (default: echo round trips, pipelined and verified)')
    .addHelpText('after', `
With neither --tcp nor --uds, the workload's server is started in a child
process (and nginx in front of it for proxy) and stopped afterwards, and its
CPU time is charged to each block. With several transports, a trial alternates
blocks A B B A … between a TCP and a UDS connection (A B C C B A … with three),
and the last lines give each transport against TCP, UDS/TCP first, with a 95 %
interval (across trials with --runs 2 or more; from one trial's blocks otherwise).
The server listens on TCP, UDS and (Linux) an abstract socket at once.
--rate N offers N requests per second in open loop, each timed from when it
should have been sent; each record says whether the rate was kept (limit:
none, server, generator). Without --workload, the workload is the first whose
depth flag is given and which takes the other options: --rate alone picks
rate (echo), --rate with --connections http-rate, --connections alone http.

${catalogue()}

A flag of another workload is refused, naming it (exit 2).

Exit codes: 0 every trial ok; 1 a trial failed; 2 bad input (nothing started);
130, 143, 129 interrupted by SIGINT (Ctrl-C), SIGTERM or SIGHUP: the run ends
at once, nothing more printed, and the server it started stops.

Examples:
  udsvstcp run --size 64 --depth 1
  udsvstcp run --workload http --connections 10 --duration 2s
  udsvstcp run --rate 2000 --duration 3s --json
  udsvstcp run --transport tcp,uds,uds-abstract --size 1KiB --depth 4
  udsvstcp run --tcp 127.0.0.1:5555 --uds /tmp/x/echo.sock --size 1k --depth 16 --packets 100000 --json`)
    .action(runCommand('run'));

  withOptions(program.command('sweep'), 'sweep')
    .description('the main job: repeated trials in separate processes, TCP and UDS in alternating blocks, into CSV, charts and a report (default preset: default)')
    .argument('[preset]', `a preset in sweeps/ (${listPresets().join(', ')}) or a path to a .json spec`)
    .addHelpText('after', `
Each trial measures one (size, depth) group of one workload (--workload,
or the preset's: ${WORKLOAD_NAMES.join(', ')}; without a preset,
--workload NAME takes that workload's defaults): it holds a TCP and a UDS
connection (or pool) to the same server, each in a fresh lane process, and alternates measured blocks A B B A …,
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

A chained preset (latency-under-load: echo-under-load, then http-under-load)
sweeps each of its parts in turn, each a complete results directory DIR/PART
under a line "== part PART", with DIR/chain.json; only run-wide flags pass
(--test, --seed, --pin, --node, --no-probe, --no-report, …): a flag that
changes a part's plan is refused (sweep that part's preset alone). A Ctrl-C
starts no later part; --resume DIR resumes the part stopped, runs the rest
and skips complete ones; report DIR rewrites each part's report.

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
    .action(runCommand('sweep'));

  program.command('report')
    .description('the report of a results directory: verdicts, tables, SVG charts, report.html, results.xlsx')
    .argument('<dir>', 'a results directory (complete, interrupted or failed)')
    .option('--out <dir>', 'write the report files here instead of DIR (an existing directory)')
    .option('--figure <metric>', 'the figure verdicts and the first charts are about, one of the directory\'s workload (default: its primary, msgs_per_s for echo)')
    .option('--json', 'the findings (groups, ratios, CIs, verdicts, warnings) as JSON on stdout')
    .option('--allow-shared-dir', 'read DIR (and write --out) even if another user owns it or group or others may write it; refused otherwise')
    .option('--quiet', 'nothing on stderr')
    .addHelpText('after', `
Writes summary.md, chart-*.svg, report.html (one self-contained page, readable
offline) and results.xlsx (typed cells: opens right in every locale) into DIR.
A sweep runs this by itself at its end. A trials.csv or meta.json it cannot
read right (a duplicate row or column, a missing primary figure, a number out
of bounds or not finite) is refused in one line naming file, line and column
(exit 2), and nothing is written.

Examples:
  udsvstcp report udsvstcp-results/20261123T105133Z-default
  udsvstcp report results/mine --json > findings.json`)
    .action(runCommand('report'));

  program.command('compare')
    .description('two sweeps side by side: B/A of each figure with its 95 % CI (Welch, log scale)')
    .argument('<dirA>', 'the results directory of the baseline sweep')
    .argument('<dirB>', 'the results directory of the sweep compared with it')
    .option('--figure <metric>', 'the figure shown in the table, one of the sweeps\' workload (default: its primary; --json holds all)')
    .option('--json', 'every row (each figure, TCP, UDS and UDS/TCP) as JSON on stdout')
    .option('--allow-shared-dir', 'read directories even if another user owns them or group or others may write them; refused otherwise')
    .option('--quiet', 'nothing on stderr')
    .addHelpText('after', `
Only the (size, depth) groups both sweeps hold are compared; with none in
common it refuses and says what each holds (exit 2). Each directory is read
by the rules of report: what it cannot read right is refused in one line.

Example:
  udsvstcp compare results/node20 results/node22`)
    .action(runCommand('compare'));

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
