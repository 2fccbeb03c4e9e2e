import { describe, expect, it } from 'vitest';
import { createMessagePipeline } from '../../lib/client/message-pipeline.js';
import { getTransport } from '../../lib/transports/index.js';
import { createPayloads } from '../../lib/client/payload.js';
import { descendants } from '../helpers/processes.js';
import { FLIP, FLIP_IPC, FLIP_WORKER, QUIT, QUIT_IPC } from '../helpers/message-echoes.js';
import { waitFor } from '../helpers/wait.js';

const payloads = createPayloads(1024, 11, 4);
const helperChildren = () => descendants(process.pid).filter((p) => p.cmdline.includes('message-echo-'));

/**
 * @param {string} name a message transport
 * @param {string} entry
 */
async function runAgainst(name, entry) {
  const kind = /** @type {import('../../lib/transports/transport.js').Channel} */ (getTransport(name).channel);
  const peer = await kind.start({ entry });
  try {
    const pipeline = createMessagePipeline(peer, { payloads, codec: kind.codec(payloads), depth: 4, timeoutMs: 5000 });
    return await pipeline.block(100).then(() => undefined, (/** @type {Error & { code?: string }} */ error) => error);
  } finally {
    await peer.stop();
  }
}

describe('every echoed byte is verified on a message channel', () => {
  it.each([
    ['ipc-json', FLIP_IPC],
    ['ipc-advanced', FLIP_IPC],
    ['worker', FLIP_WORKER],
  ])('an %s echo that flips one byte fails the block at that packet and byte', async (name, entry) => {
    const error = await runAgainst(/** @type {any} */ (name), entry);
    expect(error?.code).toBe('ERR_VERIFY');
    expect(error?.message).toMatch(new RegExp(`^echo mismatch at packet ${FLIP.packet} byte ${FLIP.byte}: sent 0x[0-9a-f]{2}, got 0x[0-9a-f]{2}$`));
    expect(await waitFor(() => helperChildren().length === 0, { timeoutMs: 5000 })).toBe(true);
  });

  it('an IPC echo child that exits mid-block fails it, saying how far it got', async () => {
    const error = await runAgainst('ipc-advanced', QUIT_IPC);
    expect(error?.code).toBe('ERR_CLOSED');
    const match = new RegExp(`exited with code ${QUIT.code} after (\\d+) of \\d+ packets sent$`).exec(String(error?.message));
    expect(Number(match?.[1]), error?.message).toBe(QUIT.packet); // every echo it sent before it exited was read
    expect(await waitFor(() => helperChildren().length === 0, { timeoutMs: 5000 })).toBe(true);
  });
});
