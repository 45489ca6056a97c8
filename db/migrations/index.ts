import type { Knex } from 'knex';
import * as initialSchema from './001_initial_schema';
import * as outboxReplyTo from './002_outbox_reply_to';
import * as ordersAndPayments from './004_orders_and_payments';
import * as localityRegister from './005_locality_register';
import * as providerIntegration from './006_provider_integration';
import * as surveyAnswersWithScreening from './007_survey_answers_with_screening';
import * as resumableUploads from './008_resumable_uploads';
import * as imageViewTags from './009_image_view_tags';
import * as isoBuildHeartbeat from './010_iso_build_heartbeat';
import * as documentFiles from './011_document_files';

type Migration = { up(knex: Knex): Promise<void>; down(knex: Knex): Promise<void> };

/**
 * Migrations in the order they run, imported statically so the same list works under tsx, vitest
 * and a bundler alike. Only ever append; never edit one that has landed.
 */
const migrations: Record<string, Migration> = {
  '001_initial_schema': initialSchema,
  '002_outbox_reply_to': outboxReplyTo,
  '004_orders_and_payments': ordersAndPayments,
  '005_locality_register': localityRegister,
  '006_provider_integration': providerIntegration,
  '007_survey_answers_with_screening': surveyAnswersWithScreening,
  '008_resumable_uploads': resumableUploads,
  '009_image_view_tags': imageViewTags,
  '010_iso_build_heartbeat': isoBuildHeartbeat,
  '011_document_files': documentFiles,
};

export const migrationSource: Knex.MigrationSource<string> = {
  async getMigrations() {
    // By name, so the order never depends on where a line was added.
    return Object.keys(migrations).sort();
  },
  getMigrationName(name) {
    return name;
  },
  async getMigration(name) {
    const migration = migrations[name];
    if (!migration) throw new Error(`Unknown migration ${name}`);
    return migration;
  },
};
