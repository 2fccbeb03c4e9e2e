/**
 * The programmatic API of udsvstcp.
 */
export { UsageError, RunError } from './errors.js';
export { startServer, diffServerStats, GREETING } from './server.js';
export { spawnServer } from './server-process.js';
export { connect, describeTarget, TRANSPORTS } from './transport.js';
export { createPipeline } from './pipeline.js';
export { createPayloads } from './payload.js';
export { runTrial, WORKLOADS } from './trial.js';
export { RECORD_FIELDS, createRecord, errorRecord } from './record.js';
export { toTable, toComparison } from './report/table.js';
export { toJsonLine } from './report/json.js';
export { collectEnvironment } from './environment.js';
export { parseSize, parseDuration, formatSize } from './units.js';
