import { Migration } from '@mikro-orm/migrations';

/**
 * Event delivery (docs/events.md, "Webhooks" and "NATS"): webhook subscriptions with their cursor in
 * the client's event sequence and a lease, so servers side by side deliver each event once and a crashed
 * server's delivery is taken over when its lease expires; the delivery log; the NATS publisher's cursor
 * per client, leased the same way.
 */
export class Migration20270106150000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "webhook_subscriptions" (
      "id" serial primary key,
      "client_id" int not null references "clients" ("id") on update cascade on delete cascade,
      "owner_id" int null references "users" ("id") on delete set null,
      "url" text not null,
      "event_types" text[] not null default '{}',
      "dictionary_ids" int[] not null default '{}',
      "active" boolean not null default true,
      "description" text null,
      "secret" text not null,
      "cursor" bigint not null default 0,
      "attempt" int not null default 0,
      "failing_since" timestamptz null,
      "next_attempt_at" timestamptz not null default now(),
      "lease_owner" text null,
      "lease_until" timestamptz null,
      "disabled_at" timestamptz null,
      "disabled_reason" text null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
    this.addSql(
      `create index "webhook_subscriptions_client_index" on "webhook_subscriptions" ("client_id", "id");`,
    );
    // The dispatcher's claim: active subscriptions due for an attempt.
    this.addSql(`create index "webhook_subscriptions_due_index" on "webhook_subscriptions" ("next_attempt_at")
      where "active";`);
    this.addSql(`create table "webhook_deliveries" (
      "id" bigserial primary key,
      "subscription_id" int not null references "webhook_subscriptions" ("id") on delete cascade,
      "client_id" int not null references "clients" ("id") on update cascade on delete cascade,
      "event_id" text not null,
      "sequence" bigint not null,
      "event_type" text not null,
      "attempt" int not null,
      "manual" boolean not null default false,
      "succeeded" boolean not null,
      "status_code" int null,
      "latency_ms" int not null,
      "error" text null,
      "created_at" timestamptz not null default now()
    );`);
    this.addSql(
      `create index "webhook_deliveries_subscription_index" on "webhook_deliveries" ("subscription_id", "id");`,
    );
    // The dispatcher prunes the log by age.
    this.addSql(`create index "webhook_deliveries_created_index" on "webhook_deliveries" ("created_at");`);
    this.addSql(`create table "event_publish_cursors" (
      "target" text not null,
      "client_id" int not null references "clients" ("id") on update cascade on delete cascade,
      "cursor" bigint not null default 0,
      "lease_owner" text null,
      "lease_until" timestamptz null,
      primary key ("target", "client_id")
    );`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "event_publish_cursors";');
    this.addSql('drop table if exists "webhook_deliveries";');
    this.addSql('drop table if exists "webhook_subscriptions";');
  }
}
