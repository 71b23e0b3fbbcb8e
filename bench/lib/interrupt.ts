/**
 * Ctrl-C during a benchmark: once interrupted, every wait throws, so that the script's clean-up runs
 * (servers stopped, database dropped) instead of leaving them behind.
 */

let interrupted = false;

/** Throws once SIGINT or SIGTERM arrived (while catchInterrupts() is in force). */
export function throwIfInterrupted() {
  if (interrupted) throw new Error('interrupted');
}

export const sleep = async (ms: number) => {
  await new Promise((resolve) => setTimeout(resolve, ms));
  throwIfInterrupted();
};

/** Turns SIGINT and SIGTERM into a thrown error at the next wait; returns the function that stops it. */
export function catchInterrupts(): () => void {
  const onSignal = () => {
    interrupted = true;
    process.exitCode = 130;
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}
