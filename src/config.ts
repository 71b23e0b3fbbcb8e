import { z } from 'zod';
import { networkList } from './modules/events/webhooks/webhook-address-guard.js';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** Every setting the server reads from its environment; parsed once at start-up so mistakes fail fast. */
export const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  /**
   * Behind a reverse proxy that ends TLS: which proxies' X-Forwarded-For/-Proto to believe. `true`
   * (any) or a comma list of proxy addresses/CIDRs; `false` (default) believes none. It decides
   * the client address (login throttling, sessions), and https, which marks the session cookie Secure
   * and sends HSTS.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value): boolean | string => {
      const text = value.trim().toLowerCase();
      if (text === 'true') return true;
      return text === 'false' || text === '' ? false : value.trim();
    }),
  /**
   * Browser origins (scheme://host[:port], comma-separated) whose pages may call REST, tRPC and GraphQL
   * (CORS, src/rest/cors.ts); none by default, so only pages of the server's own origin can.
   */
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((value, context) => {
      const origins = value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
      for (const origin of origins) {
        let parsed: URL | undefined;
        try {
          parsed = new URL(origin);
        } catch {}
        if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
          context.addIssue({
            code: 'custom',
            message: `${origin} is no origin such as https://app.example.org`,
          });
        }
      }
      return origins;
    }),
  /** Public address of the server, used to recognise `/client/{login}` referers; optional. */
  BASE_URL: z.url().optional(),
  /** Namespace base of SKOS exports (docs/exchange.md, IRIs); default: BASE_URL (or the request's origin) + /skos/. */
  SKOS_BASE_IRI: z.url().optional(),
  DATABASE_URL: z.url().optional(),
  /** Folder of the embedded PostgreSQL used when DATABASE_URL is absent. */
  EMBEDDED_PG_DIR: z.string().default('.data/postgres'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  /**
   * How long a request waits for a pooled connection, or for a new one to open, before it answers 503
   * (docs/reliability.md).
   */
  DATABASE_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().min(1).default(3000),
  /**
   * How long one statement may go unanswered before its connection is closed and the request answers
   * 503; 0: no bound. Job tasks and migrations have their own bound.
   */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(5000),
  /** The bound per statement of job tasks (TBX import, copy, reindex...), which run long statements; 0: none. */
  DATABASE_JOB_STATEMENT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(60 * 60 * 1000),
  /**
   * How long a client may take to send a whole request, headers and body (ms); a request still arriving
   * after that answers 408 and its connection is closed (docs/reliability.md, Slow clients). 0: no bound.
   */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(0).default(60_000),
  /** With it, term search runs on Elasticsearch; without it, on PostgreSQL (docs/search.md). */
  ELASTICSEARCH_URL: z.url().optional(),
  /** The term index's name (one per deployment sharing a cluster). */
  ELASTICSEARCH_INDEX: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_.-]*$/, 'lower-case letters, digits, _ . and -')
    .default('polyterm-terms'),
  /**
   * How long a write waits for its change to be searchable on Elasticsearch before answering anyway
   * (ms); the outbox delivers it later (docs/reliability.md).
   */
  ELASTICSEARCH_WRITE_WAIT_MS: z.coerce.number().int().min(0).default(1500),
  /** How long a search, or a health probe, waits for Elasticsearch before PostgreSQL answers (ms). */
  ELASTICSEARCH_SEARCH_TIMEOUT_MS: z.coerce.number().int().min(100).default(1500),
  /** Any other request to Elasticsearch (bulk writes, refreshes, rebuilds) gives up after this long (ms). */
  ELASTICSEARCH_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  MULTI_TENANT: booleanFromEnv.default(false),
  DEVELOPMENT: booleanFromEnv.default(false),
  SESSION_TIMEOUT: z.coerce.number().int().min(60).default(1800),
  MAX_PAGE_SIZE: z.coerce.number().int().min(1).default(500),
  ASYNC_THRESHOLD_MS: z.coerce.number().int().min(0).default(15000),
  /** Seconds a concept edit lock lasts without being renewed (acquire-lock again renews it). */
  CONCEPT_LOCK_TIMEOUT: z.coerce.number().int().min(1).default(900),
  MAX_FILE_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .default(50 * 1024 * 1024),
  FEEDBACK_MAX_FILE_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .default(10 * 1024 * 1024),
  /** Hours an unreferenced file is kept before the storage sweeper deletes it (docs/attachments.md). */
  STORAGE_ORPHAN_GRACE_HOURS: z.coerce.number().min(0).default(24),
  /** Minutes between rounds of the storage sweeper; 0 turns the timer off (a round can still be run). */
  STORAGE_SWEEP_MINUTES: z.coerce.number().int().min(0).default(60),
  ALWAYS_WILDCARD: booleanFromEnv.default(false),
  MULTIVALUED_SEPARATOR: z.string().min(1).default('|'),
  /** ms epoch of the build; the Docker image sets it, otherwise the server's start time is reported. */
  BUILD_DATETIME: z.coerce.number().int().optional(),
  /** Password settings: every new password must match; `msg` explains the rule to users. */
  PASSWORD_REGEXP: z
    .string()
    .default('^.{8,}$')
    .refine((value) => {
      try {
        new RegExp(value);
        return true;
      } catch {
        return false;
      }
    }, 'must be a valid regular expression'),
  PASSWORD_MESSAGE: z.string().default('A password needs at least 8 characters.'),
  /** Outgoing mail (password-reset links), e.g. smtp://user:pass@mail.example.org:587; none: no mail. */
  SMTP_URL: z.url().optional(),
  MAIL_FROM: z.string().default('Polyterm <no-reply@localhost>'),
  /** Seconds a password-reset link stays valid. */
  PASSWORD_RESET_TTL: z.coerce.number().int().min(60).default(3600),
  /**
   * The first wait of login and reset-password throttling, in ms; each further failure doubles it, up to
   * 15 minutes (docs/identity.md, "Login throttling").
   */
  LOGIN_THROTTLE_DELAY_MS: z.coerce.number().int().min(1).max(900_000).default(1000),
  /** Ed25519 public key (PEM) that verifies licence texts; without it no licence can be applied. */
  LICENSE_PUBLIC_KEY: z.string().optional(),
  /** Webhooks (docs/events.md, "Webhooks"): deliver to private, loopback and link-local addresses too. */
  WEBHOOKS_ALLOW_PRIVATE: booleanFromEnv.default(false),
  /** Networks webhooks may reach although private (comma list of addresses or CIDRs, e.g. 10.2.0.0/16). */
  WEBHOOKS_ALLOWED_NETWORKS: z
    .string()
    .default('')
    .refine((value) => {
      try {
        networkList(value);
        return true;
      } catch {
        return false;
      }
    }, 'a comma list of IP addresses or networks such as 10.2.0.0/16'),
  /** One delivery's bound, connection to answer (ms). */
  WEBHOOKS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** The first retry's wait (ms); each further failure doubles it, up to WEBHOOKS_RETRY_MAX_MS, with jitter. */
  WEBHOOKS_RETRY_BASE_MS: z.coerce.number().int().min(1).default(10_000),
  WEBHOOKS_RETRY_MAX_MS: z.coerce
    .number()
    .int()
    .min(1)
    .default(60 * 60 * 1000),
  /** How long an event may keep failing before its subscription is disabled and its owner mailed (ms). */
  WEBHOOKS_RETRY_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(1)
    .default(24 * 60 * 60 * 1000),
  /**
   * The fallback (ms): how often a server looks for new events without being told. Streams, webhooks and
   * NATS wake on the commit's notification (docs/events.md, "Waking up"); this only bounds the delay
   * when a notification is lost.
   */
  EVENTS_POLL_MS: z.coerce.number().int().min(10).default(5000),
  /**
   * Sessions and search contexts held in memory, emptied by PostgreSQL notifications (docs/identity.md,
   * "The access cache"). Off: every request reads them (a pooler that cannot LISTEN needs no switch: the
   * cache serves nothing while its listener is not connected).
   */
  ACCESS_CACHE: booleanFromEnv.default(true),
  /** Whether this server delivers webhooks (and publishes to NATS); every server may, leases share the work. */
  WEBHOOKS_DISPATCH: booleanFromEnv.default(true),
  /** With it, every event is published to NATS JetStream too (docs/events.md, "NATS"). */
  EVENTS_NATS_URL: z.string().optional(),
  /** The JetStream stream (created if missing) and the subjects' first token: <prefix>.<client id>.<event type>. */
  EVENTS_NATS_STREAM: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default('POLYTERM'),
  EVENTS_NATS_SUBJECT_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default('polyterm'),
  /**
   * Where a NATS stream's publishing starts the first time this installation publishes to it: `end`
   * (events committed from then on; the default) or `beginning` (the whole log). Later starts resume
   * from the last published event, per client and stream.
   */
  EVENTS_NATS_START: z.enum(['end', 'beginning']).default('end'),
  /**
   * The key that encrypts webhook signing secrets at rest (AES-256-GCM; docs/events.md, "The secret"): at
   * least 32 characters, e.g. `openssl rand -base64 32`. Every server of an installation needs the same.
   */
  WEBHOOK_SECRET_KEY: z.string().min(32, 'at least 32 characters, e.g. openssl rand -base64 32').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = z.infer<typeof ConfigSchema>;

/** Parses the environment; throws one readable message listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
