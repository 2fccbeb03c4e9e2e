/**
 * The programmatic API of udsvstcp.
 */
export { UsageError, RunError } from './core/errors.js';
export { startServer } from './fixture/server.js';
export { diffServerStats } from './fixture/server-stats.js';
export { HANDLERS, ECHO_GREETING, CONNECT_GREETING } from './fixture/handlers.js';
export { spawnServer } from './fixture/server-process.js';
export { findNginx, startNginx, toNginxConfig } from './fixture/nginx.js';
export { createNetwork, removeStrayNetworks, requireNetns } from './fixture/netns.js';
export { startPortProxy } from './fixture/port-proxy.js';
export { connect, describeTarget, httpOrigin, TRANSPORTS } from './client/transport.js';
export { TRANSPORT_DECLARATIONS, BASELINE, getTransport, labelOf, ratioOf } from './transports/index.js';
export { createPipeline } from './client/pipeline.js';
export { createHttpLoad } from './client/http-load.js';
export { createPayloads } from './client/payload.js';
export { runTrial } from './trial/trial.js';
export { WORKLOADS, getWorkload } from './workloads/index.js';
export { runBlocks } from './client/blocks.js';
export { RECORD_FIELDS, createRecord, errorRecord } from './trial/record.js';
export { toTable, toComparison } from './report/table.js';
export { toJsonLine, toReportJson } from './results/json.js';
export { readResultsDir } from './results/reader.js';
export { buildFindings } from './report/findings.js';
export { writeReport } from './report/report-files.js';
export { compareSweeps } from './report/compare.js';
export { FIGURES, PRIMARY } from './workloads/figures.js';
export { collectEnvironment } from './core/environment.js';
export { parseSize, parseDuration, formatSize } from './core/units.js';
export { runSweep, trialSpec } from './sweep/orchestrator.js';
export { planTrials } from './sweep/schedule.js';
export { loadSpec, resolveSpec, listPresets } from './sweep/spec.js';
export { runTrialProcess } from './trial/trial-process.js';
export { summarize, toSummaryText } from './stats/summarize.js';
export { toCsv } from './results/csv.js';
export { toRunsWide } from './results/wide.js';
export { startFixture } from './fixture/fixture.js';
export { findNode, findNodes } from './core/node-executables.js';
export { compareNodeVersions } from './stats/versions.js';
