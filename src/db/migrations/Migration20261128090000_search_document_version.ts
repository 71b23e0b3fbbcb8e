import { Migration } from '@mikro-orm/migrations';

/**
 * The versions of search documents (src/modules/search/elasticsearch-index.ts, nextDocumentVersion):
 * Elasticsearch keeps a document's highest version, so a late request with an older state changes
 * nothing. It starts far above the versions Elasticsearch gave documents written before (one per write
 * of the same term), so that the first versioned write of each replaces them.
 */
export class Migration20261128090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql('create sequence "search_document_version" start with 1000000000000;');
  }

  override async down(): Promise<void> {
    this.addSql('drop sequence if exists "search_document_version";');
  }
}
