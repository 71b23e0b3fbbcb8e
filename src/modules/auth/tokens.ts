import { createHash, randomBytes } from 'node:crypto';

/** 256-bit random value, URL-safe. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** Tokens are stored only as SHA-256 hashes: they are random, so no salt or slow hash is needed. */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');
