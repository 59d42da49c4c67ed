/** ISO 3166-1 alpha-2 codes; clients name them in the reader's language with Intl.DisplayNames. */
export const COUNTRY_CODES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
  'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT ' +
  'MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
  'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
  'UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ') as readonly string[];

/**
 * Land neighbours of the most populous countries, for "near me" (the user's country and its
 * neighbours). Symmetric once read by neighboursOf(); a country absent here is near only itself.
 */
const NEIGHBOUR_TABLE: Record<string, string> = {
  US: 'CA MX',
  MX: 'GT BZ',
  BR: 'AR BO CO GY PE PY SR UY VE GF',
  AR: 'BO CL PY UY',
  CO: 'EC PA PE VE',
  PE: 'BO CL EC',
  VE: 'GY',
  GT: 'BZ HN SV',
  HN: 'NI SV',
  NI: 'CR',
  CR: 'PA',
  GB: 'IE',
  FR: 'AD BE CH DE ES IT LU MC',
  ES: 'AD PT',
  DE: 'AT BE CH CZ DK LU NL PL',
  IT: 'AT CH SI SM VA',
  NL: 'BE',
  BE: 'LU',
  AT: 'CH CZ HU LI SI SK',
  PL: 'BY CZ LT SK UA',
  CZ: 'SK',
  HU: 'HR RO RS SK SI UA',
  RO: 'BG MD RS UA',
  BG: 'GR MK RS TR',
  GR: 'AL MK TR',
  TR: 'AM AZ GE IQ IR SY',
  UA: 'BY MD RU SK',
  RU: 'BY EE FI GE KZ LT LV MN NO CN AZ',
  SE: 'FI NO',
  NO: 'FI',
  DK: 'SE',
  EG: 'IL LY SD PS',
  MA: 'DZ EH',
  DZ: 'LY ML MR NE TN',
  NG: 'BJ CM NE TD',
  KE: 'ET SO SS TZ UG',
  ZA: 'BW LS MZ NA SZ ZW',
  SA: 'AE IQ JO KW OM QA YE',
  IR: 'AF AM AZ IQ PK TM',
  IN: 'BD BT CN MM NP PK',
  PK: 'AF CN',
  CN: 'AF BT HK IN KG KP KZ LA MN MM MO NP TJ VN',
  JP: 'KR',
  KR: 'KP',
  VN: 'KH LA',
  TH: 'KH LA MM MY',
  MY: 'BN ID SG',
  ID: 'PG TL',
  PH: 'TW',
  AU: 'NZ',
};

const NEIGHBOURS = new Map<string, Set<string>>();
for (const [c, list] of Object.entries(NEIGHBOUR_TABLE)) {
  for (const n of list.split(' ')) {
    (NEIGHBOURS.get(c) ?? NEIGHBOURS.set(c, new Set()).get(c)!).add(n);
    (NEIGHBOURS.get(n) ?? NEIGHBOURS.set(n, new Set()).get(n)!).add(c);
  }
}

/** A country and its neighbours: who is "near me". */
export function nearCountries(country: string): string[] {
  return [country, ...(NEIGHBOURS.get(country) ?? [])];
}
