import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import { serializeRequest } from './log-redaction.js';

/** Where log lines go: a stream with write(line). */
export interface LogStream {
  write(line: string): void;
}

/** The options of every logger of the server (Fastify's and the start-up one): same level, same redaction. */
export function loggerOptions(level: string) {
  return {
    level,
    redact: [
      'req.headers["x-auth-token"]',
      'req.headers.cookie',
      'req.headers.authorization',
      'res.headers["set-cookie"]',
    ],
    serializers: { req: serializeRequest },
  };
}

/**
 * Standard output as the log's destination: JSON lines for log collectors, or, on a terminal, one
 * readable coloured line per entry (pino-pretty, written synchronously so nothing is lost at exit).
 */
export function consoleLogStream(): LogStream | undefined {
  if (!process.stdout.isTTY) return undefined;
  return pretty({ sync: true, colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}

/** A logger for what happens before the server is built (database, migrations, first administrator). */
export function startupLogger(level: string, stream: LogStream | undefined): Logger {
  return pino(loggerOptions(level), stream ?? process.stdout).child({ phase: 'start-up' });
}
