import { z } from 'zod';
import type { DraftCriterion, DraftSite, TrialDraft } from '../../../contract/trials';
import { badRequest } from '../../http/errors';
import { parseCriteria, recordVocabulary, trialConceptsOf } from './criteria';
import { deriveTimeZone } from './site-zones';
import type { MeshTerm } from './vocabulary';

/**
 * ClinicalTrials.gov API v2 study record -> draft trial, by a deterministic rules engine. The output is a
 * plain `TrialDraft`: an LLM refinement step, when one is added, takes and returns the same shape.
 */

const required = (what: string) => ({ error: (issue: { input: unknown }) => (issue.input === undefined ? 'Required' : `Expected ${what}`) });
const text = z.string(required('a string'));
const optionalText = text.optional().nullable();

/** Only the parts we read are checked; every other key (locations_nested, resultsSection...) is ignored. */
const StudyRecordSchema = z.looseObject(
  {
    protocolSection: z.looseObject(
      {
        identificationModule: z.looseObject(
          {
            nctId: text.regex(/^NCT\d{8}$/, 'Expected an NCT id like NCT01234567'),
            briefTitle: optionalText,
            officialTitle: optionalText,
          },
          required('an object'),
        ),
        sponsorCollaboratorsModule: z
          .looseObject({ leadSponsor: z.looseObject({ name: optionalText }, required('an object')).optional() }, required('an object'))
          .optional(),
        descriptionModule: z.looseObject({ briefSummary: optionalText }, required('an object')).optional(),
        conditionsModule: z.looseObject({ conditions: z.array(text, required('an array')).optional() }, required('an object')).optional(),
        designModule: z
          .looseObject(
            {
              phases: z.array(text, required('an array')).optional(),
              enrollmentInfo: z.looseObject({ count: z.number(required('a number')).optional().nullable() }, required('an object')).optional(),
            },
            required('an object'),
          )
          .optional(),
        eligibilityModule: z
          .looseObject(
            {
              eligibilityCriteria: optionalText,
              healthyVolunteers: z.boolean(required('true or false')).optional().nullable(),
              sex: z.enum(['ALL', 'FEMALE', 'MALE'], required('ALL, FEMALE or MALE')).optional().nullable(),
              minimumAge: optionalText,
              maximumAge: optionalText,
            },
            required('an object'),
          )
          .optional(),
        contactsLocationsModule: z
          .looseObject(
            {
              locations: z
                .array(
                  z.looseObject(
                    {
                      facility: optionalText,
                      city: optionalText,
                      state: optionalText,
                      zip: optionalText,
                      country: optionalText,
                      geoPoint: z
                        .looseObject({ lat: z.number(required('a number')), lon: z.number(required('a number')) }, required('an object'))
                        .optional()
                        .nullable(),
                    },
                    required('an object'),
                  ),
                  required('an array'),
                )
                .optional(),
            },
            required('an object'),
          )
          .optional(),
      },
      required('an object'),
    ),
  },
  required('a JSON object'),
);
export type StudyRecord = z.infer<typeof StudyRecordSchema>;

/** Validates a study record; a body that is not one answers 400 naming what is wrong. */
export function readStudyRecord(body: unknown, pathPrefix = ''): StudyRecord {
  const result = StudyRecordSchema.safeParse(body);
  if (result.success) return result.data;
  const details = result.error.issues.slice(0, 10).map((issue) => ({
    path: [pathPrefix, ...issue.path.map(String)].filter(Boolean).join('.') || '(body)',
    message: issue.message,
  }));
  const message = `Not a ClinicalTrials.gov study record: ${details.map((detail) => `${detail.path}: ${detail.message}`).join('; ')}`;
  throw badRequest(message, details);
}

/** "18 Years", "6 Months", "2 Weeks", "30 Days" -> years (fractional); undefined when absent or unreadable. */
export function ageToYears(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(year|month|week|day|hour|minute)s?\s*$/i.exec(value);
  if (!match) return undefined;
  const amount = Number(match[1]);
  const perYear: Record<string, number> = { year: 1, month: 12, week: 52.1775, day: 365.25, hour: 8766, minute: 525_960 };
  return Math.round((amount / perYear[match[2].toLowerCase()]) * 100) / 100;
}

/** "PHASE2", "PHASE3" -> "Phase 2/Phase 3"; "EARLY_PHASE1" -> "Early Phase 1"; "NA" -> null. */
export function formatPhases(phases: readonly string[] | undefined): string | null {
  const names = (phases ?? [])
    .filter((phase) => phase && phase.toUpperCase() !== 'NA')
    .map((phase) =>
      phase
        .toUpperCase()
        .replace(/^EARLY_PHASE(\d)$/, 'Early Phase $1')
        .replace(/^PHASE(\d)$/, 'Phase $1'),
    );
  return names.length ? names.join('/') : null;
}

const clip = (value: string | null | undefined, max: number) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed.slice(0, max) : undefined;
};

function toSite(location: NonNullable<NonNullable<NonNullable<StudyRecord['protocolSection']['contactsLocationsModule']>['locations']>[number]>): DraftSite {
  const site: DraftSite = { name: clip(location.facility, 200) ?? clip(location.city, 200) ?? 'Study site' };
  const city = clip(location.city, 120);
  const region = clip(location.state, 120);
  const postalCode = clip(location.zip, 20);
  const country = clip(location.country, 120);
  if (city) site.city = city;
  if (region) site.region = region;
  if (postalCode) site.postalCode = postalCode;
  if (country) site.country = country;
  const point = location.geoPoint;
  if (point && Math.abs(point.lat) <= 90 && Math.abs(point.lon) <= 180) {
    site.latitude = point.lat;
    site.longitude = point.lon;
  }
  // Time zone from the coordinates, else the country and state; unknown stays unknown (never UTC).
  const zone = deriveTimeZone(site);
  if (zone) {
    site.timeZone = zone.timeZone;
    site.timeZoneSource = zone.source;
  }
  // Which sites are ours is for the organization to mark: an import marks none (decision 015).
  site.isOwnSite = false;
  return site;
}

/** Maps a validated study record to a draft trial: identification, design, locations and eligibility. */
export function studyToDraft(record: StudyRecord): TrialDraft {
  const protocol = record.protocolSection;
  const identification = protocol.identificationModule;
  const eligibility = protocol.eligibilityModule;
  const briefTitle = clip(identification.briefTitle, 300);
  const title = clip(identification.officialTitle, 500) ?? clip(identification.briefTitle, 500) ?? identification.nctId;

  const minimum = ageToYears(eligibility?.minimumAge);
  const maximum = ageToYears(eligibility?.maximumAge);
  const sex = (eligibility?.sex?.toLowerCase() ?? 'all') as TrialDraft['sex'];

  // The record's structured eligibility first: these rules are exact, but fractions of a year are checked.
  const structured: DraftCriterion[] = [];
  if (minimum !== undefined || maximum !== undefined) {
    const parts = [
      eligibility?.minimumAge ? `at least ${eligibility.minimumAge.trim().toLowerCase()}` : null,
      eligibility?.maximumAge ? `at most ${eligibility.maximumAge.trim().toLowerCase()}` : null,
    ];
    structured.push({
      kind: 'inclusion',
      text: `Age ${parts.filter(Boolean).join(' and ')} old`,
      rule: { type: 'age', minYears: minimum ?? null, maxYears: maximum ?? null },
      ruleSource: 'structured',
      needsReview: !Number.isInteger(minimum ?? 0) || !Number.isInteger(maximum ?? 0),
      population: null,
    });
  }
  if (eligibility?.sex && sex !== 'all') {
    structured.push({
      kind: 'inclusion',
      text: `Sex: ${sex} only`,
      rule: { type: 'sex', sex },
      ruleSource: 'structured',
      needsReview: false,
      population: null,
    });
  }
  if (typeof eligibility?.healthyVolunteers === 'boolean') {
    structured.push({
      kind: 'inclusion',
      text: eligibility.healthyVolunteers ? 'Healthy volunteers accepted' : 'Healthy volunteers not accepted',
      rule: { type: 'healthy_volunteers', accepted: eligibility.healthyVolunteers },
      ruleSource: 'structured',
      needsReview: false,
      population: null,
    });
  }

  const enrollment = protocol.designModule?.enrollmentInfo?.count;
  return {
    title,
    publicTitle: briefTitle ?? null,
    nctId: identification.nctId,
    sponsor: clip(protocol.sponsorCollaboratorsModule?.leadSponsor?.name, 300) ?? null,
    phase: formatPhases(protocol.designModule?.phases),
    conditions: (protocol.conditionsModule?.conditions ?? [])
      .map((condition) => condition.trim().slice(0, 200))
      .filter(Boolean)
      .slice(0, 100),
    summary: clip(protocol.descriptionModule?.briefSummary, 20_000) ?? null,
    targetEnrollment: typeof enrollment === 'number' && Number.isInteger(enrollment) && enrollment >= 0 ? enrollment : null,
    sites: (protocol.contactsLocationsModule?.locations ?? []).slice(0, 2000).map(toSite),
    // Whole years in the trial's columns (a minimum rounds up, a maximum down); the rule keeps the fraction.
    minimumAgeYears: minimum === undefined ? null : Math.ceil(minimum),
    maximumAgeYears: maximum === undefined ? null : Math.floor(maximum),
    sex,
    healthyVolunteers: typeof eligibility?.healthyVolunteers === 'boolean' ? eligibility.healthyVolunteers : null,
    criteria: [...structured, ...parseCriteria(eligibility?.eligibilityCriteria ?? '', readOptions(record))],
  };
}

/** The record's own MeSH terms (derivedSection, when present): concepts the criteria of this record are most about. */
export function recordMeshTerms(record: StudyRecord): MeshTerm[] {
  const derived = (record as { derivedSection?: Record<string, { meshes?: unknown; ancestors?: unknown } | undefined> }).derivedSection;
  if (!derived || typeof derived !== 'object') return [];
  const terms: MeshTerm[] = [];
  for (const [module, kind] of [
    ['conditionBrowseModule', 'condition'],
    ['interventionBrowseModule', 'medication'],
  ] as const) {
    for (const list of [derived[module]?.meshes, derived[module]?.ancestors]) {
      if (!Array.isArray(list)) continue;
      for (const item of list) {
        if (item && typeof item.id === 'string' && typeof item.term === 'string' && /^D\d+$/.test(item.id))
          terms.push({ id: item.id, term: item.term.slice(0, 200), kind });
      }
    }
  }
  return terms.slice(0, 200);
}

/** The reader's options for a record: its own MeSH terms in the vocabulary; its conditions as the trial's; its medicines' names. */
export function readOptions(record: StudyRecord) {
  const terms = recordMeshTerms(record);
  const derived = (record as { derivedSection?: { conditionBrowseModule?: { meshes?: Array<{ id?: unknown; term?: unknown }> } } }).derivedSection;
  const meshes = derived?.conditionBrowseModule?.meshes ?? [];
  const own = meshes.map((mesh) => mesh?.id).filter((id): id is string => typeof id === 'string');
  const vocabulary = recordVocabulary(terms);
  // The trial's conditions as concepts: the subject of "symptoms" or "pain" with no condition named.
  const names = [
    ...(record.protocolSection?.conditionsModule?.conditions ?? []),
    ...meshes.map((mesh) => mesh?.term).filter((term): term is string => typeof term === 'string'),
  ];
  return { vocabulary, trialConditions: new Set(own), trialConcepts: trialConceptsOf(names, vocabulary), studyMedicines: studyMedicineNames(record) };
}

/** Words that make an intervention's name a kind of treatment or an arm, not one medicine's name. */
const NOT_A_MEDICINE_NAME =
  /\b(?:placebo|sham|vehicle|saline|control|standard|usual|care|arm|blinded|therapy|treatment|injection|infusion|formulation|medicine|medication|drug|vaccine|investigational|herbal|pharmacological|co-administration|and|with)\b/i;

/**
 * The names of the trial's own medicines (drug and biological interventions, with their other names): "Finerenone",
 * "Kerendia", "MK-3475". Doses, brand marks and parentheses are set aside; a name of more than two words, of fewer than
 * four letters (two words: only the intervention's own name) or that names a kind of treatment ("Placebo", "Herbal medicine", "Sham injection") is no medicine's name.
 */
export function studyMedicineNames(record: StudyRecord): string[] {
  const arms = (record.protocolSection as { armsInterventionsModule?: { interventions?: unknown } }).armsInterventionsModule;
  const interventions = Array.isArray(arms?.interventions) ? (arms.interventions as Array<Record<string, unknown>>) : [];
  const names = new Set<string>();
  for (const intervention of interventions.slice(0, 50)) {
    if (!['DRUG', 'BIOLOGICAL'].includes(String(intervention?.type))) continue;
    const written = [intervention.name, ...(Array.isArray(intervention.otherNames) ? intervention.otherNames : [])].filter(
      (name): name is string => typeof name === 'string',
    );
    for (const [index, whole] of written.entries()) {
      // "Keytruda/MK-3475 (Pembrolizumab)": each name of a slash list and the parenthesis's.
      const parts = [whole.replace(/\([^()]*\)/g, ' '), ...[...whole.matchAll(/\(([^()]*)\)/g)].map((match) => match[1])].flatMap((part) => part.split('/'));
      for (const part of parts) {
        const name = part
          .replace(/[®™]/g, '')
          .replace(/\b\d+(?:\.\d+)?\s*(?:mg|mcg|µg|g|ml|%)(?=\s|$)/gi, ' ')
          .replace(/\btab\.?(?=\s|$)/gi, ' ')
          .replace(/\s+/g, ' ')
          .trim();
        // Two words only in the intervention's own name ("Diclofenac Sodium"); other names of two words are classes
        // ("inhaled corticosteroid") or notes ("genetical recombination").
        const most = index === 0 && part === parts[0] ? 2 : 1;
        if (name.split(' ').length > most || name.replace(/[^a-z0-9]/gi, '').length < 4 || !/[a-z]/i.test(name) || NOT_A_MEDICINE_NAME.test(name)) continue;
        names.add(name.slice(0, 80));
      }
    }
  }
  return [...names];
}

/** Validates and maps in one step (throws a 400 AppError for a body that is not a study record). */
export function draftFromStudy(body: unknown, pathPrefix = ''): TrialDraft {
  return studyToDraft(readStudyRecord(body, pathPrefix));
}
