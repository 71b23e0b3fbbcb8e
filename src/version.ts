import pkg from '../package.json' with { type: 'json' };

export const VERSION: string = pkg.version;
/** Reported when no BUILD_DATETIME is configured: the time this server process started. */
export const PROCESS_START = Date.now();
