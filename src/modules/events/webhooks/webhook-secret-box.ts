/**
 * Webhook signing secrets at rest (docs/events.md, "The secret"): AES-256-GCM under a key derived
 * (HKDF-SHA256) from WEBHOOK_SECRET_KEY, stored as `enc:v1:` + base64 of nonce, tag and ciphertext.
 * Signing needs the secret itself, so it is encrypted rather than hashed; a copy of the database or a
 * backup without the key does not sign. Rows written before the key was set (plain `whsec_...`) are read
 * as they are and encrypted when a server with the key starts.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../../config.js';
import { sql } from './webhook-sql.js';

const PREFIX = 'enc:v1:';
const NONCE = 12;
const TAG = 16;
/** Binds a ciphertext to its use: the same key could not be made to open something else. */
const AAD = Buffer.from('polyterm webhook signing secret v1');

const keys = new Map<string, Buffer>();

function keyOf(config: Pick<Config, 'WEBHOOK_SECRET_KEY'>): Buffer | null {
  const material = config.WEBHOOK_SECRET_KEY;
  if (!material) return null;
  let key = keys.get(material);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', material, 'polyterm', 'webhook-secrets', 32));
    keys.set(material, key);
  }
  return key;
}

export const isSealed = (stored: string): boolean => stored.startsWith(PREFIX);

/** The form to store: encrypted with the key; as it is without one (the server warns at start). */
export function sealSecret(config: Pick<Config, 'WEBHOOK_SECRET_KEY'>, secret: string): string {
  const key = keyOf(config);
  if (!key) return secret;
  const nonce = randomBytes(NONCE);
  const cipher = createCipheriv('aes-256-gcm', key, nonce).setAAD(AAD);
  const encrypted = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([nonce, cipher.getAuthTag(), encrypted]).toString('base64');
}

/** The secret of a stored value, encrypted or (from before the key) plain. Throws with a wrong or no key. */
export function openSecret(config: Pick<Config, 'WEBHOOK_SECRET_KEY'>, stored: string): string {
  if (!isSealed(stored)) return stored;
  const key = keyOf(config);
  if (!key) throw new Error('a webhook secret is encrypted, and WEBHOOK_SECRET_KEY is not set');
  const bytes = Buffer.from(stored.slice(PREFIX.length), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE)).setAAD(AAD);
  decipher.setAuthTag(bytes.subarray(NONCE, NONCE + TAG));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(NONCE + TAG)), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('a webhook secret does not open with WEBHOOK_SECRET_KEY (another key encrypted it)');
  }
}

/**
 * Encrypts the secrets still stored plain (at start, with a key). Each row is compared and set, so
 * servers starting side by side, or a rotation meanwhile, never lose a secret. Returns how many.
 */
export async function sealStoredSecrets(em: EntityManager, config: Config): Promise<number> {
  if (!keyOf(config)) return 0;
  const plain = await sql<{ id: number; secret: string }>(
    em,
    `select id, secret from webhook_subscriptions where secret not like 'enc:%'`,
  );
  let sealed = 0;
  for (const row of plain) {
    const updated = await sql(
      em,
      'update webhook_subscriptions set secret = ? where id = ? and secret = ? returning id',
      [sealSecret(config, row.secret), row.id, row.secret],
    );
    sealed += updated.length;
  }
  return sealed;
}
