import type { CriterionRule } from '../../../contract/trials';

/**
 * Demo trials written for the project in the shape of ClinicalTrials.gov records (identification, sponsor,
 * phase, conditions, enrollment, locations, eligibility). The NCT ids are fictional (NCT09xxxxxx).
 */
export interface DemoTrial {
  nctId: string;
  title: string;
  publicTitle: string;
  /** The public title in Spanish: what the Spanish greeting and first message name (the trial row keeps the English one). */
  spanishTitle: string;
  sponsor: string;
  phase: string;
  conditions: string[];
  summary: string;
  targetEnrollment: number;
  status: 'draft' | 'recruiting' | 'paused' | 'closed';
  minimumAgeYears: number | null;
  maximumAgeYears: number | null;
  sex: 'all' | 'female' | 'male';
  healthyVolunteers: boolean;
  /** The cities of its sites (keys of DEMO_CITIES), ours first; the last one has not started recruiting. */
  siteCities: DemoCityKey[];
  /**
   * `concept`: the MeSH heading of a condition or medication rule, which the builder resolves in the vocabulary:
   * the rule then names its concept, so forms ask in the person's language ("¿tiene asma?") and the matcher
   * matches facts by concept, as for a trial whose criteria the reader understood.
   */
  criteria: Array<{ kind: 'inclusion' | 'exclusion'; text: string; rule?: CriterionRule; concept?: string }>;
}

export const DEMO_TRIALS: DemoTrial[] = [
  {
    nctId: 'NCT09000101',
    title: 'A Randomized, Double-Blind, Placebo-Controlled Study of an Inhaled Biologic in Adults With Moderate to Severe Asthma',
    publicTitle: 'Inhaled Biologic for Moderate to Severe Asthma',
    spanishTitle: 'un biológico inhalado para el asma moderada a grave',
    sponsor: 'Northwind Therapeutics',
    phase: 'PHASE3',
    conditions: ['Asthma'],
    summary: 'Tests whether an inhaled biologic taken every 4 weeks reduces asthma attacks compared with placebo over 52 weeks.',
    targetEnrollment: 120,
    status: 'recruiting',
    minimumAgeYears: 18,
    maximumAgeYears: 75,
    sex: 'all',
    healthyVolunteers: false,
    siteCities: ['springfield', 'chicago', 'houston', 'atlanta', 'phoenix', 'seattle'],
    criteria: [
      { kind: 'inclusion', text: 'Adults aged 18 to 75 years', rule: { type: 'age', minYears: 18, maxYears: 75 } },
      {
        kind: 'inclusion',
        text: 'Physician-diagnosed asthma for at least 12 months',
        rule: { type: 'condition', condition: 'asthma', present: true },
        concept: 'asthma',
      },
      {
        kind: 'inclusion',
        text: 'At least one course of systemic corticosteroids (tablets or injections) for asthma in the past 12 months',
        rule: { type: 'medication', medication: 'systemic corticosteroids', taking: true, within: { value: 12, unit: 'months' } },
        concept: 'Glucocorticoids',
      },
      { kind: 'exclusion', text: 'Current smoker', rule: { type: 'smoking', smoker: false } },
      { kind: 'exclusion', text: 'Pregnant or breastfeeding', rule: { type: 'pregnancy', allowed: false } },
    ],
  },
  {
    nctId: 'NCT09000102',
    title: 'A Phase 2 Study of a Once-Weekly Oral GLP-1 Receptor Agonist in Adults With Type 2 Diabetes Inadequately Controlled on Metformin',
    publicTitle: 'Weekly Oral Medicine for Type 2 Diabetes',
    spanishTitle: 'un medicamento oral semanal para la diabetes tipo 2',
    sponsor: 'Bluestem Pharma',
    phase: 'PHASE2',
    conditions: ['Type 2 Diabetes Mellitus'],
    summary: 'Compares three doses of a weekly oral GLP-1 receptor agonist with placebo on HbA1c after 26 weeks.',
    targetEnrollment: 80,
    status: 'recruiting',
    minimumAgeYears: 30,
    maximumAgeYears: 70,
    sex: 'all',
    healthyVolunteers: false,
    siteCities: ['springfield', 'san_antonio', 'miami', 'philadelphia', 'denver'],
    criteria: [
      { kind: 'inclusion', text: 'Age 30 to 70 years', rule: { type: 'age', minYears: 30, maxYears: 70 } },
      {
        kind: 'inclusion',
        text: 'HbA1c between 7.0% and 10.5%',
        rule: { type: 'lab', measure: 'HbA1c', comparator: 'between', value: 7, upperValue: 10.5, unit: '%' },
      },
      {
        kind: 'inclusion',
        text: 'Stable dose of metformin for at least 90 days',
        rule: { type: 'medication', medication: 'metformin', taking: true },
        concept: 'metformin',
      },
      { kind: 'inclusion', text: 'BMI of 25 kg/m2 or more', rule: { type: 'lab', measure: 'BMI', comparator: '>=', value: 25, unit: 'kg/m2' } },
      { kind: 'exclusion', text: 'History of pancreatitis', rule: { type: 'condition', condition: 'pancreatitis', present: false }, concept: 'pancreatitis' },
      {
        kind: 'exclusion',
        text: 'Use of insulin within the past 3 months',
        rule: { type: 'medication', medication: 'insulin', taking: false },
        concept: 'insulin',
      },
    ],
  },
  {
    nctId: 'NCT09000103',
    title: 'Open-Label Study of a Wearable Neuromodulation Device for the Preventive Treatment of Episodic Migraine in Women',
    publicTitle: 'Wearable Device to Prevent Migraine',
    spanishTitle: 'un dispositivo portátil para prevenir la migraña',
    sponsor: 'Demo University Medical Center',
    phase: 'NA',
    conditions: ['Migraine Without Aura', 'Migraine With Aura'],
    summary: 'Measures the change in monthly migraine days over 12 weeks of nightly use of a wearable neuromodulation device.',
    targetEnrollment: 60,
    status: 'recruiting',
    minimumAgeYears: 18,
    maximumAgeYears: 65,
    sex: 'female',
    healthyVolunteers: false,
    siteCities: ['springfield', 'boston', 'los_angeles', 'chicago', 'atlanta', 'denver'],
    criteria: [
      { kind: 'inclusion', text: 'Women aged 18 to 65', rule: { type: 'sex', sex: 'female' } },
      {
        kind: 'inclusion',
        text: '4 to 14 migraine days per month over the past 3 months',
        rule: { type: 'condition', condition: 'migraine', present: true },
        concept: 'migraine disorders',
      },
      { kind: 'exclusion', text: 'Implanted electrical device such as a pacemaker' },
      { kind: 'exclusion', text: 'Pregnancy or plans to become pregnant during the study', rule: { type: 'pregnancy', allowed: false } },
    ],
  },
  {
    nctId: 'NCT09000104',
    title: 'A Phase 1 Study of the Safety and Pharmacokinetics of a New Seasonal Influenza Vaccine in Healthy Adults',
    publicTitle: 'New Flu Vaccine in Healthy Adults',
    spanishTitle: 'una nueva vacuna contra la gripe en adultos sanos',
    sponsor: 'Harborview Vaccines',
    phase: 'PHASE1',
    conditions: ['Influenza'],
    summary: 'Assesses the safety and immune response of two dose levels of a new seasonal influenza vaccine.',
    targetEnrollment: 40,
    status: 'paused',
    minimumAgeYears: 18,
    maximumAgeYears: 49,
    sex: 'all',
    healthyVolunteers: true,
    siteCities: ['springfield', 'houston', 'seattle', 'philadelphia', 'miami'],
    criteria: [
      { kind: 'inclusion', text: 'Healthy adults aged 18 to 49', rule: { type: 'healthy_volunteers', accepted: true } },
      { kind: 'inclusion', text: 'Age 18 to 49 years', rule: { type: 'age', minYears: 18, maxYears: 49 } },
      { kind: 'exclusion', text: 'Influenza vaccination in the past 6 months' },
      { kind: 'exclusion', text: 'Known allergy to eggs or any vaccine component' },
    ],
  },
];

export const FIRST_NAMES = [
  'Ava',
  'Ben',
  'Chloe',
  'Dev',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Isla',
  'Jamal',
  'Kara',
  'Liam',
  'Maya',
  'Noor',
  'Omar',
  'Priya',
  'Quinn',
  'Rosa',
  'Sam',
  'Tara',
  'Uri',
  'Vera',
  'Wes',
  'Ximena',
  'Yusuf',
  'Zoe',
];
export const LAST_NAMES = [
  'Smith',
  'Garcia',
  'Nguyen',
  'Okafor',
  'Patel',
  'Kim',
  'Rossi',
  'Muller',
  'Cohen',
  'Silva',
  'Haddad',
  'Novak',
  'Brown',
  'Lopez',
  'Tanaka',
  'Walsh',
  'Ivanova',
  'Mensah',
  'Larsen',
  'Dubois',
];
/** 30 US area codes x the fictional 555-0100..0199 range = 3,000 distinct demo phone numbers. */
export const AREA_CODES = [
  201, 202, 203, 205, 206, 207, 208, 209, 210, 212, 213, 214, 215, 216, 217, 218, 219, 224, 225, 228, 229, 231, 234, 239, 240, 248, 251, 252, 253, 254,
];
export const SOURCES = ['referral', 'campaign', 'import', 'web_chat', 'inbound_call', 'manual'];
export const PRESCREEN_NOTES = [
  'Confirmed diagnosis with primary care; records requested.',
  'Prefers calls after 5pm.',
  'Takes a daily inhaled steroid; dose stable for a year.',
  'Interested but needs transport to the site.',
  'Asked for the consent form by email before the visit.',
];

/**
 * The US cities of the demo sites, with the shares the candidates there are drawn from: ethnicity (US OMB:
 * "Hispanic or Latino" share) and race, in the rough proportions of the city's population, so the sponsor
 * demo's demographics differ by site.
 */
export interface DemoCity {
  city: string;
  region: string;
  timeZone: string;
  latitude: number;
  longitude: number;
  /** Three-digit ZIP prefix; candidates get prefix + 01..59. */
  zipPrefix: string;
  street: string;
  hispanicShare: number;
  /** Weights over DEMO_RACES, in order. */
  raceWeights: [number, number, number, number, number, number];
}

export const DEMO_RACES = [
  'White',
  'Black or African American',
  'Asian',
  'American Indian or Alaska Native',
  'Native Hawaiian or Other Pacific Islander',
  'More than one race',
] as const;
export const DEMO_ETHNICITIES = ['Hispanic or Latino', 'Not Hispanic or Latino'] as const;

export const DEMO_CITIES = {
  springfield: {
    city: 'Springfield',
    region: 'IL',
    timeZone: 'America/Chicago',
    latitude: 39.7817,
    longitude: -89.6501,
    zipPrefix: '627',
    street: '100 Main Street',
    hispanicShare: 0.04,
    raceWeights: [72, 20, 3, 0.5, 0.1, 4.4],
  },
  chicago: {
    city: 'Chicago',
    region: 'IL',
    timeZone: 'America/Chicago',
    latitude: 41.8781,
    longitude: -87.6298,
    zipPrefix: '606',
    street: '2200 W Harrison Street',
    hispanicShare: 0.29,
    raceWeights: [45, 29, 7, 0.5, 0.1, 18.4],
  },
  houston: {
    city: 'Houston',
    region: 'TX',
    timeZone: 'America/Chicago',
    latitude: 29.7604,
    longitude: -95.3698,
    zipPrefix: '770',
    street: '6565 Fannin Street',
    hispanicShare: 0.44,
    raceWeights: [51, 22, 7, 0.7, 0.1, 19.2],
  },
  atlanta: {
    city: 'Atlanta',
    region: 'GA',
    timeZone: 'America/New_York',
    latitude: 33.749,
    longitude: -84.388,
    zipPrefix: '303',
    street: '80 Jesse Hill Jr Drive SE',
    hispanicShare: 0.06,
    raceWeights: [39, 48, 5, 0.3, 0.1, 7.6],
  },
  phoenix: {
    city: 'Phoenix',
    region: 'AZ',
    timeZone: 'America/Phoenix',
    latitude: 33.4484,
    longitude: -112.074,
    zipPrefix: '850',
    street: '1111 E McDowell Road',
    hispanicShare: 0.42,
    raceWeights: [66, 8, 4, 2.5, 0.2, 19.3],
  },
  seattle: {
    city: 'Seattle',
    region: 'WA',
    timeZone: 'America/Los_Angeles',
    latitude: 47.6062,
    longitude: -122.3321,
    zipPrefix: '981',
    street: '325 9th Avenue',
    hispanicShare: 0.07,
    raceWeights: [64, 7, 17, 0.6, 0.3, 11.1],
  },
  san_antonio: {
    city: 'San Antonio',
    region: 'TX',
    timeZone: 'America/Chicago',
    latitude: 29.4241,
    longitude: -98.4936,
    zipPrefix: '782',
    street: '4502 Medical Drive',
    hispanicShare: 0.64,
    raceWeights: [66, 7, 3, 1, 0.1, 22.9],
  },
  miami: {
    city: 'Miami',
    region: 'FL',
    timeZone: 'America/New_York',
    latitude: 25.7617,
    longitude: -80.1918,
    zipPrefix: '331',
    street: '1611 NW 12th Avenue',
    hispanicShare: 0.7,
    raceWeights: [70, 14, 1.5, 0.2, 0.1, 14.2],
  },
  philadelphia: {
    city: 'Philadelphia',
    region: 'PA',
    timeZone: 'America/New_York',
    latitude: 39.9526,
    longitude: -75.1652,
    zipPrefix: '191',
    street: '3400 Spruce Street',
    hispanicShare: 0.15,
    raceWeights: [38, 40, 8, 0.4, 0.1, 13.5],
  },
  denver: {
    city: 'Denver',
    region: 'CO',
    timeZone: 'America/Denver',
    latitude: 39.7392,
    longitude: -104.9903,
    zipPrefix: '802',
    street: '777 Bannock Street',
    hispanicShare: 0.28,
    raceWeights: [72, 9, 4, 1.3, 0.2, 13.5],
  },
  boston: {
    city: 'Boston',
    region: 'MA',
    timeZone: 'America/New_York',
    latitude: 42.3601,
    longitude: -71.0589,
    zipPrefix: '021',
    street: '55 Fruit Street',
    hispanicShare: 0.19,
    raceWeights: [50, 23, 10, 0.3, 0.1, 16.6],
  },
  los_angeles: {
    city: 'Los Angeles',
    region: 'CA',
    timeZone: 'America/Los_Angeles',
    latitude: 34.0522,
    longitude: -118.2437,
    zipPrefix: '900',
    street: '1200 N State Street',
    hispanicShare: 0.47,
    raceWeights: [48, 9, 12, 0.7, 0.2, 30.1],
  },
} satisfies Record<string, DemoCity>;
export type DemoCityKey = keyof typeof DEMO_CITIES;

/** Site names by city: ours is "Demo Research Site - <city> Clinic", the others are partner sites. */
export const PARTNER_SITE_NAMES: Record<DemoCityKey, string> = {
  springfield: 'Demo Research Site - Springfield Clinic',
  chicago: 'Lakeshore Clinical Research',
  houston: 'Bayou City Research Institute',
  atlanta: 'Peachtree Clinical Trials',
  phoenix: 'Desert Sky Research Center',
  seattle: 'Puget Sound Clinical Research',
  san_antonio: 'Alamo Health Research',
  miami: 'Biscayne Clinical Studies',
  philadelphia: 'Liberty Research Partners',
  denver: 'Front Range Clinical Research',
  boston: 'Back Bay Research Group',
  los_angeles: 'Pacific Coast Trials',
};

export const FIRST_NAMES_HISPANIC = [
  'Alejandro',
  'Beatriz',
  'Carlos',
  'Daniela',
  'Eduardo',
  'Fernanda',
  'Gabriel',
  'Isabel',
  'Javier',
  'Lucia',
  'Mateo',
  'Mariana',
  'Rafael',
  'Sofia',
  'Valentina',
  'Diego',
];
export const LAST_NAMES_HISPANIC = [
  'Garcia',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Perez',
  'Sanchez',
  'Ramirez',
  'Torres',
  'Flores',
  'Rivera',
];
