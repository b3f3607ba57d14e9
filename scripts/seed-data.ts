import type { CriterionRule, TrialSite } from '../src/contract/trials';

/**
 * Demo trials written for the project in the shape of ClinicalTrials.gov records (identification, sponsor,
 * phase, conditions, enrollment, locations, eligibility). The NCT ids are fictional (NCT09xxxxxx).
 */
export interface DemoTrial {
  nctId: string;
  title: string;
  publicTitle: string;
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
  sites: TrialSite[];
  criteria: Array<{ kind: 'inclusion' | 'exclusion'; text: string; rule?: CriterionRule }>;
}

const SPRINGFIELD: TrialSite = {
  id: 'a7f3c2e0-5b1d-4c8e-9f20-000000000001',
  isOwnSite: true,
  timeZoneSource: 'manual',
  name: 'Demo Research Site - Springfield Clinic',
  address: '100 Main Street',
  city: 'Springfield',
  region: 'IL',
  postalCode: '62701',
  country: 'United States',
  timeZone: 'America/Chicago',
  latitude: 39.7817,
  longitude: -89.6501,
};

export const DEMO_TRIALS: DemoTrial[] = [
  {
    nctId: 'NCT09000101',
    title: 'A Randomized, Double-Blind, Placebo-Controlled Study of an Inhaled Biologic in Adults With Moderate to Severe Asthma',
    publicTitle: 'Inhaled Biologic for Moderate to Severe Asthma',
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
    sites: [SPRINGFIELD],
    criteria: [
      { kind: 'inclusion', text: 'Adults aged 18 to 75 years', rule: { type: 'age', minYears: 18, maxYears: 75 } },
      { kind: 'inclusion', text: 'Physician-diagnosed asthma for at least 12 months', rule: { type: 'condition', condition: 'asthma', present: true } },
      { kind: 'inclusion', text: 'At least two asthma exacerbations requiring systemic corticosteroids in the past year' },
      { kind: 'exclusion', text: 'Current smoker or former smoker with more than 10 pack-years' },
      { kind: 'exclusion', text: 'Pregnant or breastfeeding', rule: { type: 'pregnancy', allowed: false } },
    ],
  },
  {
    nctId: 'NCT09000102',
    title: 'A Phase 2 Study of a Once-Weekly Oral GLP-1 Receptor Agonist in Adults With Type 2 Diabetes Inadequately Controlled on Metformin',
    publicTitle: 'Weekly Oral Medicine for Type 2 Diabetes',
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
    sites: [SPRINGFIELD],
    criteria: [
      { kind: 'inclusion', text: 'Age 30 to 70 years', rule: { type: 'age', minYears: 30, maxYears: 70 } },
      { kind: 'inclusion', text: 'HbA1c between 7.0% and 10.5%', rule: { type: 'lab', measure: 'HbA1c', comparator: 'between', value: 7, upperValue: 10.5, unit: '%' } },
      { kind: 'inclusion', text: 'Stable dose of metformin for at least 90 days', rule: { type: 'medication', medication: 'metformin', taking: true } },
      { kind: 'inclusion', text: 'BMI of 25 kg/m2 or more', rule: { type: 'lab', measure: 'BMI', comparator: '>=', value: 25, unit: 'kg/m2' } },
      { kind: 'exclusion', text: 'History of pancreatitis', rule: { type: 'condition', condition: 'pancreatitis', present: false } },
      { kind: 'exclusion', text: 'Use of insulin within the past 3 months', rule: { type: 'medication', medication: 'insulin', taking: false } },
    ],
  },
  {
    nctId: 'NCT09000103',
    title: 'Open-Label Study of a Wearable Neuromodulation Device for the Preventive Treatment of Episodic Migraine in Women',
    publicTitle: 'Wearable Device to Prevent Migraine',
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
    sites: [SPRINGFIELD],
    criteria: [
      { kind: 'inclusion', text: 'Women aged 18 to 65', rule: { type: 'sex', sex: 'female' } },
      { kind: 'inclusion', text: '4 to 14 migraine days per month over the past 3 months', rule: { type: 'condition', condition: 'migraine', present: true } },
      { kind: 'exclusion', text: 'Implanted electrical device such as a pacemaker' },
      { kind: 'exclusion', text: 'Pregnancy or plans to become pregnant during the study', rule: { type: 'pregnancy', allowed: false } },
    ],
  },
  {
    nctId: 'NCT09000104',
    title: 'A Phase 1 Study of the Safety and Pharmacokinetics of a New Seasonal Influenza Vaccine in Healthy Adults',
    publicTitle: 'New Flu Vaccine in Healthy Adults',
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
    sites: [SPRINGFIELD],
    criteria: [
      { kind: 'inclusion', text: 'Healthy adults aged 18 to 49', rule: { type: 'healthy_volunteers', accepted: true } },
      { kind: 'inclusion', text: 'Age 18 to 49 years', rule: { type: 'age', minYears: 18, maxYears: 49 } },
      { kind: 'exclusion', text: 'Influenza vaccination in the past 6 months' },
      { kind: 'exclusion', text: 'Known allergy to eggs or any vaccine component' },
    ],
  },
];

export const FIRST_NAMES = ['Ava', 'Ben', 'Chloe', 'Dev', 'Elena', 'Farid', 'Grace', 'Hiro', 'Isla', 'Jamal', 'Kara', 'Liam', 'Maya', 'Noor', 'Omar', 'Priya', 'Quinn', 'Rosa', 'Sam', 'Tara', 'Uri', 'Vera', 'Wes', 'Ximena', 'Yusuf', 'Zoe'];
export const LAST_NAMES = ['Smith', 'Garcia', 'Nguyen', 'Okafor', 'Patel', 'Kim', 'Rossi', 'Muller', 'Cohen', 'Silva', 'Haddad', 'Novak', 'Brown', 'Lopez', 'Tanaka', 'Walsh', 'Ivanova', 'Mensah', 'Larsen', 'Dubois'];
/** 30 US area codes x the fictional 555-0100..0199 range = 3,000 distinct demo phone numbers. */
export const AREA_CODES = [201, 202, 203, 205, 206, 207, 208, 209, 210, 212, 213, 214, 215, 216, 217, 218, 219, 224, 225, 228, 229, 231, 234, 239, 240, 248, 251, 252, 253, 254];
export const SOURCES = ['referral', 'campaign', 'import', 'web_chat', 'inbound_call', 'manual'];
export const PRESCREEN_NOTES = [
  'Confirmed diagnosis with primary care; records requested.',
  'Prefers calls after 5pm.',
  'Takes a daily inhaled steroid; dose stable for a year.',
  'Interested but needs transport to the site.',
  'Asked for the consent form by email before the visit.',
];
