import { z } from 'zod';
import { defineEndpoint, type ProviderEndpoint } from '../provider/endpoint';
import { createInvitationService, INVITATION_LIFETIME_DAYS, type InvitationDeps } from './invitation';

const errorBody = z.object({
  code: z.string(),
  message: z.string().optional(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

/** The provider API's calls of the notices area: the portal invitation. */
export function invitationEndpoints(deps: InvitationDeps): ProviderEndpoint[] {
  const invitations = createInvitationService(deps);
  return [
    defineEndpoint({
      method: 'post',
      path: '/patients/:externalId/invitation',
      operationId: 'invitePatient',
      summary: 'Invite a patient to the portal',
      description:
        'Opens a portal account for the patient when she has none (her email address is the login) and sends her, ' +
        `by email or SMS and in the language given, a single-use link valid ${INVITATION_LIFETIME_DAYS} days that sets ` +
        'her password. A new invitation makes the previous link invalid.',
      tag: 'Patients',
      scope: 'patients:write',
      idempotent: true,
      request: {
        params: z.object({ externalId: z.string().min(1).max(64).describe("The provider's own id of the patient.") }),
        body: z.object({
          channel: z.enum(['email', 'sms']).describe('How the link is sent: to her email address, or by SMS to her phone number.'),
          language: z.enum(['pl', 'en']).describe('The language of the message.'),
        }),
      },
      responses: {
        202: {
          description: 'The invitation is on its way (kept in the outbox until delivered).',
          schema: z.object({
            userId: z.number().int().describe("The patient's portal account."),
            channel: z.enum(['email', 'sms']),
            expiresAt: z.iso.datetime().describe('When the link stops working.'),
          }),
        },
        404: { description: 'No patient with this id (NOT_FOUND).', schema: errorBody },
        409: {
          description:
            'Her account is disabled, another account uses her email address as its login (CONFLICT), or a call with this ' +
            'Idempotency-Key is still running (IDEMPOTENCY_KEY_IN_PROGRESS).',
          schema: errorBody,
        },
        422: {
          description:
            'She has no account and no email address, or no phone number for an SMS (VALIDATION, with `issues`); or the ' +
            'Idempotency-Key was used with another request (IDEMPOTENCY_KEY_REUSED).',
          schema: errorBody,
        },
      },
      async handle({ params, body }) {
        const sent = await invitations.invite(params.externalId, body);
        return {
          status: 202,
          body: { userId: sent.userId, channel: sent.channel, expiresAt: sent.expiresAt.toISOString() },
          object: { type: 'patient', id: sent.personalDataId },
        };
      },
    }),
  ];
}
