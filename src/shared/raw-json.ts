/**
 * An answer that carries its own JSON text, serialised off the event loop (decoration's worker
 * threads, issue 38): the REST adapter sends that text as it is instead of JSON.stringify-ing
 * megabytes in the server's thread. Other readers (GraphQL, tRPC) read the object.
 */
const RAW_JSON = Symbol('raw JSON');

export function withRawJson<T extends object>(value: T, json: string): T {
  return Object.assign(value, { [RAW_JSON]: json });
}

/** The JSON text an answer carries, if it does. */
export function rawJsonOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null
    ? (value as { [RAW_JSON]?: string })[RAW_JSON]
    : undefined;
}
