import type { Db } from '../../server/db';

/** Entries of one audit type written from one address, oldest first, as the owner's log holds them. */
export function auditEntries(db: Db, type: string, ip: string) {
  return db('audit_entries').where({ type, ip }).orderBy('id').select('user_id', 'screening_id', 'description');
}

/** A fresh client address per check, so each test reads only the audit entries it caused. */
export function addressSource(prefix: string): () => { ip: string; headers: Record<string, string> } {
  let next = 1;
  return () => {
    const ip = `${prefix}.${next++}`;
    return { ip, headers: { 'x-forwarded-for': ip } };
  };
}
