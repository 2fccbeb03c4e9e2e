/** A forked IPC echo that corrupts one byte (test/helpers/message-echoes.js). */
import { serveMessageEcho } from '../../lib/fixture/message-echo.js';
import { flipOne } from './message-echoes.js';

serveMessageEcho(flipOne);
