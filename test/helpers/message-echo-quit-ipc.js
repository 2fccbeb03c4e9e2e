/** A forked IPC echo that exits with QUIT.code instead of echoing packet QUIT.packet (test/helpers/message-echoes.js). */
import { serveMessageEcho } from '../../lib/fixture/message-echo.js';
import { QUIT } from './message-echoes.js';

serveMessageEcho((message, index) => {
  if (index === QUIT.packet) process.exit(QUIT.code);
  return message;
});
