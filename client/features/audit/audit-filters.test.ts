import { createIntl } from '@formatjs/intl';
import { describe, expect, it } from 'vitest';
import { AUDIT_TYPES, type AuditDescriptionClause, type AuditType } from '@common/audit';
import type { Translate } from '../../lib/intl';
import en from '../../i18n/en.json';
import pl from '../../i18n/pl.json';
import { apiQueryOf, descriptionClausesOf, filtersFromSearch, nextDay, NO_FILTERS, searchOfFilters } from './audit-filters';
import { auditDescriptionTexts, describeAuditEntry, type AuditDescriptionTexts } from './audit-labels';

function translator(locale: 'pl' | 'en'): Translate {
  const intl = createIntl({ locale, messages: locale === 'pl' ? pl : en });
  return (key, values) => String(intl.formatMessage({ id: key }, values));
}

const english = translator('en');
const polish = translator('pl');
const EN = auditDescriptionTexts(english);
const PL = auditDescriptionTexts(polish);

describe('audit filters in the URL', () => {
  it('read back what they wrote', () => {
    const filters = {
      page: 3,
      from: '2024-03-10',
      to: '2024-03-15',
      groups: ['SCREENING' as const, 'LOGIN_PORTAL' as const],
      description: '192.0',
    };
    const search = searchOfFilters(filters);
    expect(search.toString()).toBe('page=3&from=2024-03-10&to=2024-03-15&types=SCREENING%2CLOGIN_PORTAL&description=192.0');
    expect(filtersFromSearch(search)).toEqual(filters);
  });

  it('leave out what is not filtered, so the bare page has a bare URL', () => {
    expect(searchOfFilters(NO_FILTERS).toString()).toBe('');
  });

  it('read anything broken in a hand-edited URL as no filter', () => {
    const search = new URLSearchParams('page=-2&from=2024-02-30&to=2024-03-01&types=LOGIN_PORTAL,NOPE,SCREENING,LOGIN_PORTAL');
    expect(filtersFromSearch(search)).toEqual({ ...NO_FILTERS, groups: ['SCREENING', 'LOGIN_PORTAL'] });
    expect(filtersFromSearch(new URLSearchParams('from=2024-03-10'))).toEqual(NO_FILTERS);
    expect(filtersFromSearch(new URLSearchParams('from=2024-03-10&to=2024-03-01'))).toEqual(NO_FILTERS);
  });
});

describe('the API query', () => {
  it('sends the chosen end plus one day and the groups joined with a percent sign', () => {
    expect(apiQueryOf({ page: 2, from: '2024-02-20', to: '2024-02-29', groups: ['ISO', 'ISO_GENERATE'], description: 'x' }, EN)).toEqual({
      page: 2,
      from: '2024-02-20',
      to: '2024-03-01',
      types: 'ISO%ISO_GENERATE',
      description: 'x',
      descriptionMatch: undefined,
    });
    expect(apiQueryOf(NO_FILTERS, EN)).toEqual({
      page: 1,
      from: undefined,
      to: undefined,
      types: undefined,
      description: undefined,
      descriptionMatch: undefined,
    });
  });

  it('sends the description with where it falls in the descriptions shown in the current language', () => {
    const query = apiQueryOf({ ...NO_FILTERS, description: 'DICOM' }, PL);
    expect(query.description).toBe('DICOM');
    expect(JSON.parse(String(query.descriptionMatch))).toEqual([{ types: ['DICOM_UPLOAD'] }]);
  });

  it('counts days across months and years', () => {
    expect(nextDay('2024-12-31')).toBe('2025-01-01');
    expect(nextDay('2023-02-28')).toBe('2023-03-01');
  });
});

/** An entry as the server holds it, and whether it matches the API query as the server reads it (server/audit/repo.ts). */
type Entry = { type: AuditType; ip: string | null };

function ipMatches(ip: string | null, condition: AuditDescriptionClause['ip']): boolean {
  if (condition === undefined) return true;
  if (condition === 'present') return ip !== null;
  if (condition === 'absent') return ip === null;
  if (ip === null) return false;
  const address = ip.toLowerCase();
  if ('startsWith' in condition) return address.startsWith(condition.startsWith.toLowerCase());
  if ('endsWith' in condition) return address.endsWith(condition.endsWith.toLowerCase());
  return address === condition.equals.toLowerCase();
}

/** The entries the server answers for the API query of `text` (server/audit/repo.ts, in memory). */
function serverFinds(entries: readonly Entry[], text: string, descriptions: readonly AuditDescriptionTexts[]): Entry[] {
  const clauses = descriptionClausesOf(text, descriptions);
  const wanted = text.trim().toLowerCase();
  return entries.filter(
    (entry) =>
      entry.ip?.toLowerCase().includes(wanted) ||
      clauses.some(({ types, ip }) => (types === undefined || types.includes(entry.type)) && ipMatches(entry.ip, ip)),
  );
}

const IPS = ['192.0.2.10', '2001:db8::7', null];
const ENTRIES: Entry[] = AUDIT_TYPES.flatMap((type) => IPS.map((ip) => ({ type, ip })));

describe('the description filter', () => {
  it('finds the name of a type as the page shows it in the current language', () => {
    expect(descriptionClausesOf('DICOM', EN)).toEqual([{ types: ['DICOM_UPLOAD'] }]);
    expect(descriptionClausesOf('dicom', PL)).toEqual([{ types: ['DICOM_UPLOAD'] }]);
    expect(descriptionClausesOf('Result viewed', EN)).toEqual([{ types: ['RESULT'] }]);
    expect(descriptionClausesOf('Odczyt wyniku', PL)).toEqual([{ types: ['RESULT'] }]);
    // English words on the Polish page are in no description there.
    expect(descriptionClausesOf('Result viewed', PL)).toEqual([]);
    expect(descriptionClausesOf('  password   CHANGE ', EN)).toEqual([
      { types: ['USER_PASSWORD_CHANGE', 'USER_PASSWORD_CHANGE_UNAUTHORIZED'] },
    ]);
  });

  it('finds text across the name and the IP, and the words around the IP only where there is one', () => {
    expect(descriptionClausesOf('IP 192.0', EN)).toEqual([{ ip: { startsWith: '192.0' } }]);
    expect(descriptionClausesOf('uploaded, IP 10.1', EN)).toEqual([{ types: ['DICOM_UPLOAD'], ip: { startsWith: '10.1' } }]);
    expect(descriptionClausesOf(', IP', PL)).toEqual([{ ip: 'present' }]);
    expect(descriptionClausesOf('DICOM, IP', PL)).toEqual([{ types: ['DICOM_UPLOAD'], ip: 'present' }]);
    // No address holds a letter after f.
    expect(descriptionClausesOf('IP xyz', EN)).toEqual([]);
  });

  it('finds text that runs from the IP into words after it, when a language puts any there', () => {
    const around: AuditDescriptionTexts[] = [{ type: 'LOGIN_PORTAL', withoutIp: 'Login', beforeIp: 'Login (IP ', afterIp: ') ok' }];
    expect(descriptionClausesOf('0.2.10) o', around)).toEqual([{ types: ['LOGIN_PORTAL'], ip: { endsWith: '0.2.10' } }]);
    expect(descriptionClausesOf('(IP 192.0.2.10)', around)).toEqual([{ types: ['LOGIN_PORTAL'], ip: { equals: '192.0.2.10' } }]);
  });

  it.each([
    ['en', EN, english],
    ['pl', PL, polish],
  ] as const)('in %s, finds exactly the entries whose shown description contains the text', (_, descriptions, t) => {
    const samples: Entry[] = [
      { type: 'DICOM_UPLOAD', ip: '192.0.2.10' },
      { type: 'LOGIN_PORTAL_UNAUTHORIZED', ip: '2001:db8::7' },
      { type: 'ISO_GENERATE', ip: null },
    ];
    const shownOf = new Map(ENTRIES.map((entry) => [entry, describeAuditEntry(t, entry).toLowerCase()]));
    for (const sample of samples) {
      const shown = describeAuditEntry(t, sample);
      for (let start = 0; start < shown.length; start++) {
        for (let end = start + 1; end <= shown.length; end++) {
          const text = shown.slice(start, end);
          if (!text.trim()) continue;
          const expected = ENTRIES.filter((entry) => shownOf.get(entry)?.includes(text.trim().toLowerCase()));
          expect(serverFinds(ENTRIES, text, descriptions), `"${text}"`).toEqual(expected);
        }
      }
    }
  });
});
