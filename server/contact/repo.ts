import type { ContactRequest } from '../../common/validation/contact';
import type { Db } from '../db';

/** Stored before any forwarding, so a message survives a mail server that is down. */
export async function insertContactMessage(db: Db, message: ContactRequest, createdAt: Date): Promise<number> {
  const [row] = await db('contact_messages')
    .insert({
      first_name: message.firstName,
      last_name: message.lastName,
      email: message.email,
      phone_number: message.phoneNumber,
      content: message.content,
      consent: message.consent,
      language: message.language,
      created_at: createdAt,
    })
    .returning('id');
  return Number(row.id);
}

export async function markForwarded(db: Db, id: number, forwardedAt: Date): Promise<void> {
  await db('contact_messages').where({ id }).update({ forwarded_at: forwardedAt });
}
