import { Migration } from '@mikro-orm/migrations';

/**
 * Jobs carry a heartbeat, refreshed by the server that runs them (src/modules/jobs/job-heartbeat.ts).
 * A RUNNING job whose heartbeat stopped lost its server; any instance may then fail it, while a job
 * another live instance runs is left alone. Rows from before the column count from their creation.
 */
export class Migration20261126090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "job_tasks" add column "heartbeat_at" timestamptz null;');
    this.addSql(
      `create index "job_tasks_running_heartbeat_index" on "job_tasks" ((coalesce("heartbeat_at", "created_at"))) where "status" = 'RUNNING';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index "job_tasks_running_heartbeat_index";');
    this.addSql('alter table "job_tasks" drop column "heartbeat_at";');
  }
}
