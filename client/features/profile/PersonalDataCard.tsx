import type { SessionUser } from '@common/types/session';
import { Card } from '../../components/ui/Card';
import { useIntl, useT, type MessageKey } from '../../lib/intl';
import { capitalizeName } from '../../lib/display-name';

type Row = { label: MessageKey; value: string | null | undefined };

/** "My data": what the provider holds about the patient, read-only (spec section 2). */
export function PersonalDataCard({ user }: { user: SessionUser }) {
  const t = useT();
  const intl = useIntl();
  const person = user.personalData;
  if (!person) return null;

  // A calendar day, not an instant: formatted in UTC so no time zone moves it to the day before.
  const birthDate = intl.formatDate(`${person.birthAt}T00:00:00Z`, { dateStyle: 'long', timeZone: 'UTC' });
  const rows: Row[] = [
    { label: 'profile.data.firstName', value: capitalizeName(person.firstName) },
    { label: 'profile.data.lastName', value: capitalizeName(person.lastName) },
    { label: 'profile.data.birthAt', value: birthDate },
    { label: 'profile.data.pesel', value: person.pesel },
    { label: 'profile.data.email', value: person.email ?? user.email },
    { label: 'profile.data.phoneNumber', value: person.phoneNumber },
  ];

  return (
    <Card title={t('profile.data.title')} className="profile-card">
      <dl className="profile-data">
        {rows.map(({ label, value }) => (
          <div key={label} className="profile-data__row">
            <dt>{t(label)}</dt>
            <dd className={value ? undefined : 'profile-data__missing'}>{value || t('profile.data.notGiven')}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
