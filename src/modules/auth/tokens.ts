import { createHash, randomBytes } from 'node:crypto';

/** 256-bit random value, URL-safe. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** Tokens are stored only as SHA-256 hashes: they are random, so no salt or slow hash is needed. */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** Characters of an API key that its hint shows: 36 of its 256 bits, enough to tell keys apart. */
const HINT_LENGTH = 6;

/** The masked form of an API key that administrators see on later reads: its first characters. */
export const apiKeyHintOf = (key: string): string => `${key.slice(0, HINT_LENGTH)}…`;

/** A new API key, with what is stored of it: its hash and its hint. */
export function newApiKey() {
  const key = newSecret();
  return { key, apiKeyHash: hashSecret(key), apiKeyHint: apiKeyHintOf(key) };
}

/** What is stored of a new key nobody is shown (a new client's): its hash and hint. */
export function storedApiKey() {
  const { apiKeyHash, apiKeyHint } = newApiKey();
  return { apiKeyHash, apiKeyHint };
}
