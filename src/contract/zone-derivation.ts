import { zoneOfInternationalPhone } from './phone-zones';

/**
 * A candidate's time zone when none was given, so calling hours work (issue 15). Offline tables, coarse on
 * purpose: the zone most of an area lives in. Order: a US ZIP code (3-digit prefix) or Canadian postal code,
 * then the US state / Canadian province, then the phone number: its North American area code, or outside
 * +1 its country's one clock or its region's (phone-zones.ts, issue 32). A country with several clocks and
 * no region rule derives nothing (calling hours are then judged in all of them: calling-hours.ts).
 */

export type ZoneSource = 'postal_code' | 'region' | 'phone';
export interface DerivedZone {
  timeZone: string;
  from: ZoneSource;
}

const ET = 'America/New_York';
const CT = 'America/Chicago';
const MT = 'America/Denver';
const PT = 'America/Los_Angeles';

const US_STATE_ZONES: Record<string, string> = {
  CT: ET,
  DE: ET,
  DC: ET,
  FL: ET,
  GA: ET,
  IN: 'America/Indiana/Indianapolis',
  KY: ET,
  ME: ET,
  MD: ET,
  MA: ET,
  MI: 'America/Detroit',
  NH: ET,
  NJ: ET,
  NY: ET,
  NC: ET,
  OH: ET,
  PA: ET,
  RI: ET,
  SC: ET,
  VT: ET,
  VA: ET,
  WV: ET,
  AL: CT,
  AR: CT,
  IL: CT,
  IA: CT,
  KS: CT,
  LA: CT,
  MN: CT,
  MS: CT,
  MO: CT,
  NE: CT,
  ND: CT,
  OK: CT,
  SD: CT,
  TN: CT,
  TX: CT,
  WI: CT,
  CO: MT,
  ID: 'America/Boise',
  MT: MT,
  NM: MT,
  UT: MT,
  WY: MT,
  AZ: 'America/Phoenix',
  CA: PT,
  NV: PT,
  OR: PT,
  WA: PT,
  AK: 'America/Anchorage',
  HI: 'Pacific/Honolulu',
  PR: 'America/Puerto_Rico',
  VI: 'America/St_Thomas',
  GU: 'Pacific/Guam',
};

const CA_PROVINCE_ZONES: Record<string, string> = {
  AB: 'America/Edmonton',
  BC: 'America/Vancouver',
  MB: 'America/Winnipeg',
  NB: 'America/Moncton',
  NL: 'America/St_Johns',
  NS: 'America/Halifax',
  ON: 'America/Toronto',
  PE: 'America/Halifax',
  QC: 'America/Toronto',
  SK: 'America/Regina',
  NT: 'America/Edmonton',
  NU: 'America/Iqaluit',
  YT: 'America/Whitehorse',
};

const STATE_NAMES: Record<string, string> = {
  alabama: 'AL',
  alaska: 'AK',
  arizona: 'AZ',
  arkansas: 'AR',
  california: 'CA',
  colorado: 'CO',
  connecticut: 'CT',
  delaware: 'DE',
  'district of columbia': 'DC',
  'washington dc': 'DC',
  'washington d c': 'DC',
  florida: 'FL',
  georgia: 'GA',
  hawaii: 'HI',
  idaho: 'ID',
  illinois: 'IL',
  indiana: 'IN',
  iowa: 'IA',
  kansas: 'KS',
  kentucky: 'KY',
  louisiana: 'LA',
  maine: 'ME',
  maryland: 'MD',
  massachusetts: 'MA',
  michigan: 'MI',
  minnesota: 'MN',
  mississippi: 'MS',
  missouri: 'MO',
  montana: 'MT',
  nebraska: 'NE',
  nevada: 'NV',
  'new hampshire': 'NH',
  'new jersey': 'NJ',
  'new mexico': 'NM',
  'new york': 'NY',
  'north carolina': 'NC',
  'north dakota': 'ND',
  ohio: 'OH',
  oklahoma: 'OK',
  oregon: 'OR',
  pennsylvania: 'PA',
  'rhode island': 'RI',
  'south carolina': 'SC',
  'south dakota': 'SD',
  tennessee: 'TN',
  texas: 'TX',
  utah: 'UT',
  vermont: 'VT',
  virginia: 'VA',
  washington: 'WA',
  'west virginia': 'WV',
  wisconsin: 'WI',
  wyoming: 'WY',
  'puerto rico': 'PR',
};
const PROVINCE_NAMES: Record<string, string> = {
  alberta: 'AB',
  'british columbia': 'BC',
  manitoba: 'MB',
  'new brunswick': 'NB',
  'newfoundland and labrador': 'NL',
  newfoundland: 'NL',
  'nova scotia': 'NS',
  ontario: 'ON',
  'prince edward island': 'PE',
  quebec: 'QC',
  québec: 'QC',
  saskatchewan: 'SK',
  'northwest territories': 'NT',
  nunavut: 'NU',
  yukon: 'YT',
};

/** ZIP prefix ranges (first three digits, inclusive) -> state. */
const ZIP3_RANGES: Array<[number, number, string]> = [
  [5, 5, 'NY'],
  [6, 9, 'PR'],
  [10, 27, 'MA'],
  [28, 29, 'RI'],
  [30, 38, 'NH'],
  [39, 49, 'ME'],
  [50, 54, 'VT'],
  [55, 55, 'MA'],
  [56, 59, 'VT'],
  [60, 69, 'CT'],
  [70, 89, 'NJ'],
  [100, 149, 'NY'],
  [150, 196, 'PA'],
  [197, 199, 'DE'],
  [200, 205, 'DC'],
  [206, 219, 'MD'],
  [220, 246, 'VA'],
  [247, 268, 'WV'],
  [270, 289, 'NC'],
  [290, 299, 'SC'],
  [300, 319, 'GA'],
  [320, 349, 'FL'],
  [350, 369, 'AL'],
  [370, 385, 'TN'],
  [386, 397, 'MS'],
  [398, 399, 'GA'],
  [400, 427, 'KY'],
  [430, 459, 'OH'],
  [460, 479, 'IN'],
  [480, 499, 'MI'],
  [500, 528, 'IA'],
  [530, 549, 'WI'],
  [550, 567, 'MN'],
  [569, 569, 'DC'],
  [570, 577, 'SD'],
  [580, 588, 'ND'],
  [590, 599, 'MT'],
  [600, 629, 'IL'],
  [630, 658, 'MO'],
  [660, 679, 'KS'],
  [680, 693, 'NE'],
  [700, 714, 'LA'],
  [716, 729, 'AR'],
  [730, 749, 'OK'],
  [750, 799, 'TX'],
  [800, 816, 'CO'],
  [820, 831, 'WY'],
  [832, 838, 'ID'],
  [840, 847, 'UT'],
  [850, 865, 'AZ'],
  [870, 884, 'NM'],
  [885, 885, 'TX'],
  [889, 898, 'NV'],
  [900, 961, 'CA'],
  [967, 968, 'HI'],
  [969, 969, 'GU'],
  [970, 979, 'OR'],
  [980, 994, 'WA'],
  [995, 999, 'AK'],
];
/** ZIP prefixes of the part of a state that keeps another zone than the state's main one. */
const ZIP3_OVERRIDES: Record<number, string> = {
  324: CT,
  325: CT, // Florida panhandle west of the Apalachicola
  373: ET,
  374: ET,
  376: ET,
  377: ET,
  378: ET,
  379: ET, // East Tennessee
  420: CT,
  421: CT,
  422: CT,
  423: CT,
  424: CT, // West Kentucky
  463: CT,
  464: CT,
  476: CT,
  477: CT, // Indiana: Gary, Evansville
  575: MT,
  576: MT,
  577: MT, // West South Dakota
  691: MT,
  692: MT,
  693: MT, // West Nebraska
  798: MT,
  799: MT,
  885: MT, // El Paso
  835: PT,
  836: PT,
  837: PT,
  838: PT, // North Idaho
};

/** Canadian postal codes' first letter -> province. */
const CA_POSTAL_LETTER: Record<string, string> = {
  A: 'NL',
  B: 'NS',
  C: 'PE',
  E: 'NB',
  G: 'QC',
  H: 'QC',
  J: 'QC',
  K: 'ON',
  L: 'ON',
  M: 'ON',
  N: 'ON',
  P: 'ON',
  R: 'MB',
  S: 'SK',
  T: 'AB',
  V: 'BC',
  Y: 'YT',
};

/** North American area codes by state/province (the zone of most of the area). */
const AREA_CODES: Record<string, string> = {
  AL: '205 251 256 334 659 938',
  AK: '907',
  AZ: '480 520 602 623 928',
  AR: '327 479 501 870',
  CA: '209 213 279 310 323 341 350 408 415 424 442 510 530 559 562 619 626 628 650 657 661 669 707 714 747 760 805 818 820 831 840 858 909 916 925 949 951',
  CO: '303 719 720 970 983',
  CT: '203 475 860 959',
  DE: '302',
  DC: '202 771',
  FL: '239 305 321 352 386 407 448 561 656 689 727 754 772 786 813 850 863 904 941 954',
  GA: '229 404 470 478 678 706 762 770 912 943',
  HI: '808',
  ID: '208 986',
  IL: '217 224 309 312 331 447 464 618 630 708 730 773 779 815 847 861 872',
  IN: '260 317 463 574 765 812 930',
  IA: '319 515 563 641 712',
  KS: '316 620 785 913',
  KY: '502 606 859',
  LA: '225 318 337 504 985',
  ME: '207',
  MD: '227 240 301 410 443 667',
  MA: '339 351 413 508 617 774 781 857 978',
  MI: '231 248 269 313 517 586 616 679 734 810 906 947 989',
  MN: '218 320 507 612 651 763 952',
  MS: '228 601 662 769',
  MO: '235 314 417 557 573 636 660 816',
  MT: '406',
  NE: '308 402 531',
  NV: '702 725 775',
  NH: '603',
  NJ: '201 551 609 640 732 848 856 862 908 973',
  NM: '505 575',
  NY: '212 315 332 347 363 516 518 585 607 631 646 680 716 718 838 845 914 917 929 934',
  NC: '252 336 472 704 743 828 910 919 980 984',
  ND: '701',
  OH: '216 220 234 283 326 330 380 419 436 440 513 567 614 740 937',
  OK: '405 539 572 580 918',
  OR: '458 503 541 971',
  PA: '215 223 267 272 412 445 484 570 582 610 717 724 814 835 878',
  RI: '401',
  SC: '803 821 839 843 854 864',
  SD: '605',
  TN: '615 629 731 901 931',
  TX: '210 214 254 281 325 346 361 409 430 432 469 512 682 713 726 737 806 817 830 832 903 936 940 945 956 972 979',
  UT: '385 435 801',
  VT: '802',
  VA: '276 434 540 571 686 703 757 804 826 948',
  WA: '206 253 360 425 509 564',
  WV: '304 681',
  WI: '262 274 353 414 534 608 715 920',
  WY: '307',
  PR: '787 939',
  // Split states: the area code's own zone.
  'America/New_York': '423 865', // East Tennessee
  'America/Chicago': '219 270 364', // Gary (Indiana), West Kentucky
  'America/Denver': '915', // El Paso
  // Canada
  MB: '204 431 584',
  BC: '236 250 604 672 778',
  AB: '368 403 587 780 825',
  SK: '306 474 639',
  ON: '226 249 289 343 365 416 437 519 548 613 647 683 705 742 753 807 905',
  QC: '263 354 367 418 438 450 468 514 579 581 819 873',
  NB: '428 506',
  NL: '709',
  NS: '782 902',
};
const AREA_CODE_ZONES = new Map<string, string>();
for (const [key, codes] of Object.entries(AREA_CODES)) {
  const zone = key.includes('/') ? key : (US_STATE_ZONES[key] ?? CA_PROVINCE_ZONES[key]);
  for (const code of codes.split(' ')) AREA_CODE_ZONES.set(code, zone);
}

const normalizeName = (value: string) => value.trim().toLowerCase().normalize('NFC').replace(/[.,]/g, ' ').replace(/\s+/g, ' ').trim();

function countryOf(country: string | null | undefined): 'US' | 'CA' | 'other' | null {
  if (!country?.trim()) return null;
  const key = normalizeName(country);
  if (['us', 'usa', 'u s a', 'u s', 'united states', 'united states of america', 'america'].includes(key)) return 'US';
  if (['ca', 'can', 'canada'].includes(key)) return 'CA';
  return 'other';
}

/** The zone of a US ZIP code (5 or 9 digits) or a Canadian postal code (A1A 1A1), or null. */
export function zoneFromPostalCode(postalCode: string | null | undefined, country?: string | null): string | null {
  const code = postalCode?.trim().toUpperCase() ?? '';
  const place = countryOf(country);
  if (place === 'other' || !code) return null;
  const zip = /^(\d{5})(?:-?\d{4})?$/.exec(code);
  if (zip && place !== 'CA') {
    const prefix = Number(zip[1].slice(0, 3));
    if (ZIP3_OVERRIDES[prefix]) return ZIP3_OVERRIDES[prefix];
    const range = ZIP3_RANGES.find(([from, to]) => prefix >= from && prefix <= to);
    return range ? (US_STATE_ZONES[range[2]] ?? null) : null;
  }
  const canadian = /^([A-Z])\d[A-Z] ?\d[A-Z]\d$/.exec(code);
  if (canadian && place !== 'US') {
    const province = CA_POSTAL_LETTER[canadian[1]];
    return province ? CA_PROVINCE_ZONES[province] : null;
  }
  return null;
}

/** The zone of a US state or Canadian province, by code ("TX", "QC") or name ("Texas", "Québec"), or null. */
export function zoneFromRegion(region: string | null | undefined, country?: string | null): string | null {
  if (!region?.trim()) return null;
  const place = countryOf(country);
  if (place === 'other') return null;
  const key = normalizeName(region);
  const upper = key.toUpperCase().replace(/\s/g, '');
  const us = US_STATE_ZONES[upper] ?? US_STATE_ZONES[STATE_NAMES[key] ?? ''];
  const ca = CA_PROVINCE_ZONES[upper] ?? CA_PROVINCE_ZONES[PROVINCE_NAMES[key] ?? ''];
  if (place === 'CA') return ca ?? null;
  if (place === 'US') return us ?? null;
  return us ?? ca ?? null;
}

/** The zone of a phone number in E.164: a North American (+1) one by its area code, another by its country or region; or null. */
export function zoneFromPhone(phone: string | null | undefined): string | null {
  const match = /^\+1(\d{3})\d{7}$/.exec(phone?.trim() ?? '');
  if (match) return AREA_CODE_ZONES.get(match[1]) ?? null;
  const international = zoneOfInternationalPhone(phone);
  return international.kind === 'zone' ? international.timeZone : null;
}

export interface ZoneHints {
  postalCode?: string | null;
  region?: string | null;
  country?: string | null;
  phone?: string | null;
}

/** The best zone for a person from their address, else their phone; null when nothing tells. */
export function deriveTimeZone(hints: ZoneHints): DerivedZone | null {
  const byPostal = zoneFromPostalCode(hints.postalCode, hints.country);
  if (byPostal) return { timeZone: byPostal, from: 'postal_code' };
  const byRegion = zoneFromRegion(hints.region, hints.country);
  if (byRegion) return { timeZone: byRegion, from: 'region' };
  const byPhone = zoneFromPhone(hints.phone);
  if (byPhone) return { timeZone: byPhone, from: 'phone' };
  return null;
}
