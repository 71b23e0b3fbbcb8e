/**
 * An answer that carries its own JSON, serialised and UTF-8 encoded off the event loop (decoration's
 * worker threads, issue 38): the REST adapter sends those bytes as they are instead of
 * JSON.stringify-ing megabytes in the server's thread (and collecting the strings after). Other
 * readers (GraphQL, tRPC) read the object.
 */
const RAW_JSON = Symbol('raw JSON');

export function withRawJson<T extends object>(value: T, json: Uint8Array): T {
  return Object.assign(value, { [RAW_JSON]: json });
}

/** The JSON an answer carries (UTF-8), if it does. */
export function rawJsonOf(value: unknown): Buffer | undefined {
  const bytes =
    typeof value === 'object' && value !== null
      ? (value as { [RAW_JSON]?: Uint8Array })[RAW_JSON]
      : undefined;
  return bytes && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
