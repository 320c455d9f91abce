import { countries } from 'countries-list';
import type { Language } from '../../../shared/contracts/common.ts';
import type { Country, VisitorCountry } from '../../../shared/contracts/system.ts';
import { countryOfAddress } from '../../providers/geo.ts';

/**
 * Where a visitor is (IsChina) and the list of countries (GetCountrieList), docs/api.md#where-the-visitor-is.
 * Names come from the runtime's CLDR data (Intl.DisplayNames), in the caller's language.
 */

/** Mainland China: Hong Kong, Macao and Taiwan have codes of their own, as in GeoLite2. */
const CHINA = 'CN';

export async function visitorCountry(address: string): Promise<VisitorCountry> {
  const country = await countryOfAddress(address);
  return { isChina: country === CHINA, country };
}

const CODES = Object.keys(countries);
const lists = new Map<Language, Country[]>();

/** Every ISO 3166-1 country, named in `lang` and sorted as a reader of it expects (Chinese by pinyin). */
export function countryList(lang: Language): Country[] {
  let list = lists.get(lang);
  if (!list) {
    const names = new Intl.DisplayNames([lang], { type: 'region', fallback: 'code' });
    const collator = new Intl.Collator(lang === 'zh' ? 'zh-u-co-pinyin' : lang);
    list = CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) => collator.compare(a.name, b.name));
    lists.set(lang, list);
  }
  return list;
}
