/**
 * The forked echo child of ipc-json.js and ipc-advanced.js: says 'ready',
 * then sends back every message as it came. Quits when the channel closes.
 * --corrupt changes the first message it echoes (a base64 string: its first
 * character; bytes: the last byte).
 */
if (!process.send) throw new Error('ipc-echo.js must be forked');
const send = process.send.bind(process);
let corrupt = process.argv.includes('--corrupt');
process.on('message', (/** @type {any} */ message) => {
  if (corrupt) {
    corrupt = false;
    if (typeof message === 'string') message = (message[0] === 'A' ? 'B' : 'A') + message.slice(1);
    else message[message.length - 1] ^= 0xff;
  }
  send(message);
});
process.on('disconnect', () => process.exit(0));
send('ready');
