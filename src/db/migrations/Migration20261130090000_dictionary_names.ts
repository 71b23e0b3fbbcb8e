import { Migration } from '@mikro-orm/migrations';

/**
 * Dictionary names become unique among the live dictionaries of a client, ignoring case, by a partial
 * unique index as for the other named resources: a check before the insert alone let concurrent creates
 * of one name all pass. Live duplicates stored before keep the oldest dictionary's name; each later one
 * gets " (2)", " (3)"... (the first number free in its client, the name shortened to fit 255 characters)
 * and a new version, so that editors holding the old one reload it.
 */
export class Migration20261130090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`do $$
declare
  duplicate record;
  suffix text;
  candidate text;
  n int;
begin
  for duplicate in
    select id, client_id, name from (
      select id, client_id, name,
             row_number() over (partition by client_id, lower(name) order by created_at, id) as rank
        from dictionaries where not deleted
    ) ranked
    where rank > 1
    order by client_id, id
  loop
    n := 2;
    loop
      suffix := ' (' || n || ')';
      candidate := left(duplicate.name, 255 - length(suffix)) || suffix;
      exit when not exists (
        select 1 from dictionaries
         where client_id = duplicate.client_id and not deleted and lower(name) = lower(candidate)
      );
      n := n + 1;
    end loop;
    update dictionaries
       set name = candidate, version = version + 1, changed_at = now()
     where id = duplicate.id;
  end loop;
end $$;`);
    this.addSql(`drop index if exists "dictionaries_client_name_index";`);
    this.addSql(
      `create unique index "dictionaries_client_name_live_unique" on "dictionaries" ("client_id", lower("name")) where not "deleted";`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "dictionaries_client_name_live_unique";`);
    this.addSql(
      `create index "dictionaries_client_name_index" on "dictionaries" ("client_id", lower("name"));`,
    );
  }
}
