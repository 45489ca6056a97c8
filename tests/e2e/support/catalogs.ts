import en from '../../../client/i18n/en.json' with { type: 'json' };
import pl from '../../../client/i18n/pl.json' with { type: 'json' };

/** The message catalogs, so journeys name controls by the texts users read, in either language. */
export type Catalog = typeof pl;
export const catalogs = { pl, en } satisfies Record<'pl' | 'en', Catalog>;
export { en, pl };
