/**
 * The commands that read results directories (`report`, `compare`), added
 * to the command line in one call so lib/cli.js stays small. Each command's
 * module is loaded when it runs.
 */

/**
 * @param {import('commander').Command} program
 * @param {{ stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream, chalk: import('chalk').ChalkInstance }} out
 * @param {(code: number) => void} setCode
 */
export function addResultsCommands(program, out, setCode) {
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
    .action(async (dir, opts) => {
      const { report } = await import('./report.js');
      setCode(await report(dir, opts, out));
    });

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
    .action(async (dirA, dirB, opts) => {
      const { compare } = await import('./compare.js');
      setCode(await compare(dirA, dirB, opts, out));
    });
}
