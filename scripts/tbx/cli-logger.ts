import type { FastifyBaseLogger } from 'fastify';

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
type Level = (typeof LEVELS)[number];

/**
 * The services log through the request's pino logger; on the command line their few lines go to stderr
 * as text, at `level` and above (stack traces at debug), so stdout holds only the tool's own output.
 */
export function cliLogger(level: string): FastifyBaseLogger {
  const threshold = LEVELS.indexOf(level as Level);
  const write =
    (at: Level) =>
    (first: unknown, ...rest: unknown[]) => {
      if (threshold < 0 || LEVELS.indexOf(at) < threshold) return;
      const fields = typeof first === 'object' && first !== null ? (first as { err?: unknown }) : undefined;
      const message = fields ? rest[0] : first;
      const error = fields?.err instanceof Error ? fields.err : undefined;
      const cause = error ? `: ${threshold <= LEVELS.indexOf('debug') ? error.stack : error.message}` : '';
      process.stderr.write(`${at}: ${String(message ?? '')}${cause}\n`);
    };
  const logger = {
    level,
    trace: write('trace'),
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    fatal: write('fatal'),
    silent: () => {},
    child: () => logger,
  };
  return logger as unknown as FastifyBaseLogger;
}
