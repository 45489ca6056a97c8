import type { ContactRequest } from '@common/validation/contact';
import { api } from '../../lib/api';

/** `POST /api/contact/create`: stored and forwarded to the provider; answers 201 `{}`. */
export async function sendContactMessage(message: ContactRequest): Promise<void> {
  await api.post<Record<string, never>>('/contact/create', message);
}
