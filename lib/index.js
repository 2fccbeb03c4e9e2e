/**
 * The programmatic API of udsvstcp.
 */
export { UsageError, RunError } from './errors.js';
export { startServer } from './server.js';
export { diffServerStats } from './server-stats.js';
export { HANDLERS, ECHO_GREETING, CONNECT_GREETING } from './handlers.js';
export { spawnServer } from './server-process.js';
export { findNginx, startNginx, toNginxConfig } from './nginx.js';
export { connect, describeTarget, httpOrigin, TRANSPORTS } from './transport.js';
export { createPipeline } from './pipeline.js';
export { createHttpLoad } from './http-load.js';
export { createPayloads } from './payload.js';
export { runTrial } from './trial.js';
export { WORKLOADS, getWorkload } from './workloads/index.js';
export { runBlocks } from './blocks.js';
export { RECORD_FIELDS, createRecord, errorRecord } from './record.js';
export { toTable, toComparison } from './report/table.js';
export { toJsonLine, toReportJson } from './report/json.js';
export { readResultsDir } from './report/results-dir.js';
export { buildFindings } from './report/findings.js';
export { writeReport } from './report/report-files.js';
export { compareSweeps } from './report/compare.js';
export { FIGURES, PRIMARY } from './report/figures.js';
export { collectEnvironment } from './environment.js';
export { parseSize, parseDuration, formatSize } from './units.js';
