import { z } from 'zod';
import type { CandidateFactInput, FactStatus } from '../../../contract/matching';
import { AppError } from '../../http/errors';
import { canonical, implausible, MEASURES, type Measure } from '../trials/criteria';
import { conceptOfCode, longestMention } from '../candidates/service';
import { type AnalyteValue, analyteValueOf } from './fhir-analytes';

/**
 * A FHIR R4 bundle (Synthea output, or an EHR export of one person) -> the candidate it describes and their
 * candidate facts. Pure: no I/O, no logging (the bundle is patient data). What is read and how statuses map:
 * docs/fhir-import.md.
 *
 * One bad resource never fails the bundle: it is skipped and named (type and id only) in `warnings`.
 */

export interface FhirPatient {
  firstName: string | null;
  lastName: string | null;
  /** YYYY-MM-DD; null when the bundle has none or only a year or month. */
  dateOfBirth: string | null;
  sex: 'female' | 'male' | 'other' | 'unknown';
  /** As written in the bundle (not E.164): whoever stores it normalizes it. */
  phone: string | null;
  email: string | null;
  addressLine: string | null;
  city: string | null;
  /** The state or region as written ("Massachusetts", "MA"). */
  region: string | null;
  postalCode: string | null;
  country: string | null;
  preferredLanguage: 'en' | 'es';
  fhirId: string | null;
}

export interface FhirBundleReading {
  patient: FhirPatient;
  facts: CandidateFactInput[];
  warnings: string[];
}

/** A bundle the product cannot take as a whole; the message is shown to the person who sent it. */
export class FhirBundleError extends AppError {
  constructor(message: string) {
    super(400, message);
    this.name = 'FhirBundleError';
  }
}

// ---- the shapes read (only the parts used; every other key is ignored) ----

const Coding = z.looseObject({ system: z.string().optional(), code: z.string().optional(), display: z.string().optional() });
const CodeableConcept = z.looseObject({ coding: z.array(Coding).optional(), text: z.string().optional() });
type CodeableConcept = z.infer<typeof CodeableConcept>;
const Quantity = z.looseObject({ value: z.number().optional(), unit: z.string().optional(), code: z.string().optional(), comparator: z.string().optional() });
type Quantity = z.infer<typeof Quantity>;
const Reference = z.looseObject({ reference: z.string().optional(), display: z.string().optional() });
const Period = z.looseObject({ start: z.string().optional(), end: z.string().optional() });
const Contained = z.array(z.looseObject({ resourceType: z.string(), id: z.string().optional() })).optional();

const BundleSchema = z.looseObject({ resourceType: z.literal('Bundle'), entry: z.array(z.unknown()).optional() });
const EntrySchema = z.looseObject({
  fullUrl: z.string().optional(),
  resource: z.looseObject({ resourceType: z.string().min(1), id: z.string().optional() }),
});

const PatientSchema = z.looseObject({
  id: z.string().optional(),
  name: z.array(z.looseObject({ use: z.string().optional(), family: z.string().optional(), given: z.array(z.string()).optional() })).optional(),
  gender: z.string().optional(),
  birthDate: z.string().optional(),
  telecom: z.array(z.looseObject({ system: z.string().optional(), value: z.string().optional(), use: z.string().optional() })).optional(),
  address: z
    .array(
      z.looseObject({
        use: z.string().optional(),
        line: z.array(z.string()).optional(),
        city: z.string().optional(),
        state: z.string().optional(),
        postalCode: z.string().optional(),
        country: z.string().optional(),
      }),
    )
    .optional(),
  communication: z.array(z.looseObject({ language: CodeableConcept, preferred: z.boolean().optional() })).optional(),
});

const ConditionSchema = z.looseObject({
  code: CodeableConcept,
  clinicalStatus: CodeableConcept.optional(),
  verificationStatus: CodeableConcept.optional(),
  onsetDateTime: z.string().optional(),
  onsetPeriod: Period.optional(),
  recordedDate: z.string().optional(),
});

const MedicationRequestSchema = z.looseObject({
  status: z.string(),
  medicationCodeableConcept: CodeableConcept.optional(),
  medicationReference: Reference.optional(),
  authoredOn: z.string().optional(),
  contained: Contained,
});

const MedicationStatementSchema = z.looseObject({
  status: z.string(),
  medicationCodeableConcept: CodeableConcept.optional(),
  medicationReference: Reference.optional(),
  effectiveDateTime: z.string().optional(),
  effectivePeriod: Period.optional(),
  dateAsserted: z.string().optional(),
  contained: Contained,
});

const MedicationSchema = z.looseObject({ code: CodeableConcept.optional() });

const ObservationSchema = z.looseObject({
  status: z.string().optional(),
  code: CodeableConcept,
  effectiveDateTime: z.string().optional(),
  effectiveInstant: z.string().optional(),
  effectivePeriod: Period.optional(),
  issued: z.string().optional(),
  valueQuantity: Quantity.optional(),
  valueCodeableConcept: CodeableConcept.optional(),
  valueInteger: z.number().optional(),
  component: z.array(z.looseObject({ code: CodeableConcept, valueQuantity: Quantity.optional() })).optional(),
});

// ---- code systems ----

const SNOMED = 'http://snomed.info/sct';
const ICD10_CM = 'http://hl7.org/fhir/sid/icd-10-cm';
const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const LOINC = 'http://loinc.org';

/** LOINC codes -> the measure names criteria rules use (MEASURES in trials/criteria/measures.ts). */
const LOINC_MEASURES: Record<string, string> = {
  '39156-5': 'BMI',
  '4548-4': 'HbA1c',
  '17856-6': 'HbA1c',
  '59261-8': 'HbA1c',
  '33914-3': 'eGFR',
  '48642-3': 'eGFR',
  '48643-1': 'eGFR',
  '62238-1': 'eGFR',
  '98979-8': 'eGFR',
  '2160-0': 'creatinine',
  '718-7': 'hemoglobin',
  '777-3': 'platelets',
  '6690-2': 'WBC',
  '751-8': 'ANC',
  '731-0': 'lymphocytes',
  '711-2': 'eosinophils',
  '2089-1': 'LDL-C',
  '13457-7': 'LDL-C',
  '18262-6': 'LDL-C',
  '2571-8': 'triglycerides',
  '1742-6': 'ALT',
  '1920-8': 'AST',
  '1975-2': 'bilirubin',
  '1751-7': 'albumin',
  // Urine albumin and protein over creatinine, protein in a day's urine (decision 323).
  '9318-7': 'UACR',
  '14959-1': 'UACR',
  '2890-2': 'UPCR',
  '2889-4': 'urine protein',
  '2823-3': 'potassium',
  '1558-6': 'fasting glucose',
  // Glucose at any time, in serum or plasma and in blood (mass and molar), and HIV-1's viral load (decision 367).
  '2345-7': 'blood glucose',
  '14749-6': 'blood glucose',
  '2339-0': 'blood glucose',
  '20447-9': 'HIV viral load',
  '6301-6': 'INR',
  '1988-5': 'CRP',
  '20150-9': 'FEV1',
  // FEV1 over FVC, in percent (decision 372).
  '19926-5': 'FEV1/FVC ratio',
  '10230-1': 'LVEF',
  '8480-6': 'systolic blood pressure',
  '8462-4': 'diastolic blood pressure',
  '8867-4': 'heart rate',
  '29463-7': 'weight',
  '3141-9': 'weight',
  '8302-2': 'height',
  '2708-6': 'oxygen saturation',
  '59408-5': 'oxygen saturation',
};
const SMOKING_STATUS = '72166-2';
const PREGNANCY_STATUS = '82810-3';
const ECOG = '89247-1';
const KARNOFSKY = '89243-0';

/** UCUM unit codes -> the way criteria write them, so the parser's conversions apply. 10*3/uL is 10^9/L exactly. */
const UCUM_UNITS: Record<string, string> = {
  'mm[Hg]': 'mmHg',
  '/min': 'bpm',
  '{beats}/min': 'bpm',
  '10*3/uL': '10^9/L',
  '10*3/mm3': '10^9/L',
  '10*9/L': '10^9/L',
  'mL/min/{1.73_m2}': 'mL/min/1.73m2',
  'mL/min/1.73.m2': 'mL/min/1.73m2',
  '[lb_av]': 'lb',
  '[in_i]': 'in',
  '[IU]/L': 'U/L',
  '{copies}/mL': 'copies/mL',
};

/** SNOMED answers of the smoking status observation (US Core's value set and Synthea's). */
const SMOKING_ANSWERS: Record<string, FactStatus | null> = {
  '266919005': 'absent', // never smoked tobacco
  '8517006': 'history', // ex-smoker
  '449868002': 'present', // smokes tobacco daily
  '428041000124106': 'present', // occasional tobacco smoker
  '77176002': 'present', // smoker, current status unknown
  '65568007': 'present', // cigarette smoker
  '428061000124105': 'present', // light tobacco smoker
  '428071000124103': 'present', // heavy tobacco smoker
  '266927001': null, // unknown if ever smoked
};
const PREGNANCY_ANSWERS: Record<string, FactStatus | null> = {
  '77386006': 'present', // pregnant
  '60001007': 'absent', // not pregnant
  '261665006': null, // unknown
};
/** LOINC answer list LL529-9: ECOG 0-5. */
const ECOG_ANSWERS: Record<string, number> = { 'LA9622-7': 0, 'LA9623-5': 1, 'LA9624-3': 2, 'LA9625-0': 3, 'LA9626-8': 4, 'LA9627-6': 5 };

// ---- statuses ----

const CLINICAL_STATUS: Record<string, FactStatus> = {
  active: 'present',
  recurrence: 'present',
  relapse: 'present',
  inactive: 'history',
  remission: 'history',
  resolved: 'history',
};
/** A condition that is not confirmed is no fact about the person. */
const NOT_ASSERTED = new Set(['refuted', 'entered-in-error', 'unconfirmed', 'provisional', 'differential']);
const REQUEST_STATUS: Record<string, FactStatus | null> = {
  active: 'present',
  'on-hold': 'present',
  completed: 'history',
  stopped: 'history',
  cancelled: 'history',
  'entered-in-error': null,
  draft: null,
  unknown: null,
};
const STATEMENT_STATUS: Record<string, FactStatus | null> = {
  active: 'present',
  'on-hold': 'present',
  completed: 'history',
  stopped: 'history',
  'not-taken': 'absent',
  'entered-in-error': null,
  intended: null,
  unknown: null,
};

// ---- the reader ----

interface Entry {
  index: number;
  fullUrl: string | undefined;
  resource: { resourceType: string; id?: string } & Record<string, unknown>;
  /** What the facts cite: the resource id, else the entry's fullUrl. */
  ref: string | null;
}

/** A fact with the place it came from, so the list comes out in bundle order. */
interface Placed {
  fact: CandidateFactInput;
  at: number;
}

/** An observation fact competing to be the latest of its measure. */
interface Latest extends Placed {
  time: number | null;
}

export function readFhirBundle(bundle: unknown): FhirBundleReading {
  const parsed = BundleSchema.safeParse(bundle);
  if (!parsed.success) throw new FhirBundleError('The file is not a FHIR bundle');
  const warnings: string[] = [];
  const entries: Entry[] = [];
  for (const [index, raw] of (parsed.data.entry ?? []).entries()) {
    const entry = EntrySchema.safeParse(raw);
    if (!entry.success) {
      warnings.push(`Entry ${index + 1} was skipped: it has no resource, or the resource does not say its type.`);
      continue;
    }
    const { fullUrl, resource } = entry.data;
    entries.push({ index, fullUrl, resource, ref: clip(resource.id ?? fullUrl ?? null, 200) });
  }

  const patients = entries.filter((entry) => entry.resource.resourceType === 'Patient');
  if (!patients.length) throw new FhirBundleError('The bundle has no Patient');
  if (patients.length > 1) throw new FhirBundleError(`The bundle has ${patients.length} Patients: one patient per bundle`);
  const patient = readPatient(patients[0]);

  const medications = medicationIndex(entries);
  const placed: Placed[] = [];
  const latest = new Map<string, Latest>();
  const skip = (entry: Entry, reason: string) =>
    warnings.push(`${entry.resource.resourceType} ${entry.ref ?? `(entry ${entry.index + 1})`} was skipped: ${reason}.`);

  for (const entry of entries) {
    const at = entry.index * 100;
    switch (entry.resource.resourceType) {
      case 'Condition': {
        const condition = ConditionSchema.safeParse(entry.resource);
        if (!condition.success) skip(entry, unreadable(condition.error));
        else {
          const fact = readCondition(condition.data, entry, skip);
          if (fact) placed.push({ fact, at });
        }
        break;
      }
      case 'MedicationRequest':
      case 'MedicationStatement': {
        const request = entry.resource.resourceType === 'MedicationRequest';
        const medication = (request ? MedicationRequestSchema : MedicationStatementSchema).safeParse(entry.resource);
        if (!medication.success) skip(entry, unreadable(medication.error));
        else {
          const fact = readMedication(medication.data, request, entry, medications, skip);
          if (fact) placed.push({ fact, at });
        }
        break;
      }
      case 'Observation': {
        const observation = ObservationSchema.safeParse(entry.resource);
        if (!observation.success) skip(entry, unreadable(observation.error));
        else for (const found of readObservation(observation.data, entry, at, skip, warnings)) keepLatest(latest, found.key, found);
        break;
      }
      default:
        // Encounters, claims, immunizations, care plans...: nothing a criterion asks about (yet).
        break;
    }
  }
  const facts = [...placed, ...latest.values()].sort((a, b) => a.at - b.at).map((item) => item.fact);
  return { patient, facts, warnings };
}

// ---- Patient ----

function readPatient(entry: Entry): FhirPatient {
  const parsed = PatientSchema.safeParse(entry.resource);
  if (!parsed.success) throw new FhirBundleError(`The bundle's Patient could not be read (${unreadable(parsed.error)})`);
  const patient = parsed.data;
  const names = patient.name ?? [];
  const name =
    names.find((item) => item.use === 'official') ??
    names.find((item) => item.use === 'usual') ??
    names.find((item) => item.use !== 'old' && item.use !== 'maiden') ??
    names[0];
  const telecom = patient.telecom ?? [];
  const current = <T extends { use?: string }>(items: T[]) => items.find((item) => item.use !== 'old') ?? items[0];
  const phones = telecom.filter((item) => item.system === 'phone' && item.value?.trim());
  const phone = phones.find((item) => item.use === 'mobile') ?? current(phones);
  const email = current(telecom.filter((item) => item.system === 'email' && item.value?.trim()));
  const addresses = patient.address ?? [];
  const address = addresses.find((item) => item.use === 'home') ?? current(addresses);
  const communication = patient.communication ?? [];
  const language = (communication.find((item) => item.preferred) ?? communication[0])?.language;
  const sex = patient.gender === 'female' || patient.gender === 'male' || patient.gender === 'other' ? patient.gender : 'unknown';
  return {
    firstName: personName(name?.given?.[0]),
    lastName: personName(name?.family),
    dateOfBirth: datePart(patient.birthDate),
    sex,
    phone: phone?.value?.trim() ?? null,
    email: email?.value?.trim() ?? null,
    addressLine: text(
      address?.line
        ?.map((line) => line.trim())
        .filter(Boolean)
        .join(', '),
    ),
    city: text(address?.city),
    region: text(address?.state),
    postalCode: text(address?.postalCode),
    country: text(address?.country),
    preferredLanguage: isSpanish(language) ? 'es' : 'en',
    fhirId: entry.ref,
  };
}

/** Synthea numbers its names ("Bibi254"): the digits are not part of the name. */
const personName = (value: string | undefined) => text(value?.replace(/\d+$/, ''));

function isSpanish(language: CodeableConcept | undefined): boolean {
  if (!language) return false;
  // BCP-47 "es", "es-MX"; ISO 639-2 "spa" (not "est", Estonian).
  if (language.coding?.some((coding) => coding.code && /^(?:es|spa)(?:[-_]|$)/i.test(coding.code))) return true;
  return !language.coding?.some((coding) => coding.code) && /^(?:spanish|español)\b/i.test(language.text ?? '');
}

// ---- Condition ----

type Skip = (entry: Entry, reason: string) => void;

function readCondition(condition: z.infer<typeof ConditionSchema>, entry: Entry, skip: Skip): CandidateFactInput | null {
  const verification = firstCode(condition.verificationStatus);
  if (verification && NOT_ASSERTED.has(verification)) return null;
  const display = displayOf(condition.code, SNOMED);
  if (!display) {
    skip(entry, 'its code has no text');
    return null;
  }
  // Synthea records "Suspected COVID-19" as its own condition before the diagnosis: a suspicion, not a fact.
  if (/^suspected\b/i.test(display)) return null;
  const clinical = firstCode(condition.clinicalStatus);
  let status: FactStatus;
  if (clinical) {
    const mapped = CLINICAL_STATUS[clinical];
    if (!mapped) {
      skip(entry, `its clinical status "${clip(clinical, 40)}" is not one FHIR R4 defines`);
      return null;
    }
    status = mapped;
  } else {
    // No clinical status: abated means over, else it stands.
    status = Object.keys(entry.resource).some((key) => key.startsWith('abatement')) ? 'history' : 'present';
  }
  // An ICD-10-CM coding names the concept when the vocabulary maps its code with certainty; else the words do (SNOMED has no map here).
  const icd10 = condition.code.coding?.find((coding) => coding.system === ICD10_CM && coding.code)?.code;
  const concept = (icd10 ? conceptOfCode(icd10) : null) ?? longestMention(display, 'condition');
  return fact({
    kind: 'condition',
    conceptId: concept?.id ?? null,
    name: clip(concept?.en ?? stripSemanticTag(display), 300)!,
    status,
    observedOn: datePart(condition.onsetDateTime ?? condition.onsetPeriod?.start) ?? datePart(condition.recordedDate),
    sourceRef: entry.ref,
    sourceText: clip(display, 2000),
    code: codeOf(condition.code, SNOMED),
  });
}

/** "Childhood asthma (disorder)" -> "Childhood asthma": SNOMED's semantic tag is not part of the name. */
const stripSemanticTag = (display: string) =>
  display.replace(/\s*\((?:disorder|finding|situation|morphologic abnormality|event|observable entity|clinical finding)\)\s*$/i, '').trim() || display;

// ---- MedicationRequest, MedicationStatement ----

type MedicationUse = z.infer<typeof MedicationRequestSchema> | z.infer<typeof MedicationStatementSchema>;

function readMedication(
  medication: MedicationUse,
  request: boolean,
  entry: Entry,
  medications: Map<string, CodeableConcept>,
  skip: Skip,
): CandidateFactInput | null {
  const statuses = request ? REQUEST_STATUS : STATEMENT_STATUS;
  if (!(medication.status in statuses)) {
    skip(entry, `its status "${clip(medication.status, 40)}" is not one FHIR R4 defines`);
    return null;
  }
  const status = statuses[medication.status];
  if (!status) return null;
  const code = medication.medicationCodeableConcept ?? referencedMedication(medication, entry, medications);
  const display = code ? displayOf(code, RXNORM) : text(medication.medicationReference?.display);
  if (!display) {
    skip(entry, 'it names no medication that can be read');
    return null;
  }
  const concept = longestMention(display, 'medication');
  const when = request
    ? (medication as z.infer<typeof MedicationRequestSchema>).authoredOn
    : medicationTaken(medication as z.infer<typeof MedicationStatementSchema>);
  return fact({
    kind: 'medication',
    conceptId: concept?.id ?? null,
    name: clip(concept?.en ?? display, 300)!,
    status,
    observedOn: datePart(when),
    sourceRef: entry.ref,
    sourceText: clip(display, 2000),
    code: code ? codeOf(code, RXNORM) : null,
  });
}

const medicationTaken = (statement: z.infer<typeof MedicationStatementSchema>) =>
  statement.effectiveDateTime ?? statement.effectivePeriod?.start ?? statement.dateAsserted;

/** Medication resources of the bundle by the ways a reference names them: "Medication/id" and the entry's fullUrl. */
function medicationIndex(entries: Entry[]): Map<string, CodeableConcept> {
  const index = new Map<string, CodeableConcept>();
  for (const entry of entries) {
    if (entry.resource.resourceType !== 'Medication') continue;
    const code = MedicationSchema.safeParse(entry.resource);
    if (!code.success || !code.data.code) continue;
    if (entry.resource.id) index.set(`Medication/${entry.resource.id}`, code.data.code);
    if (entry.fullUrl) index.set(entry.fullUrl, code.data.code);
  }
  return index;
}

function referencedMedication(medication: MedicationUse, _entry: Entry, medications: Map<string, CodeableConcept>): CodeableConcept | null {
  const reference = medication.medicationReference?.reference;
  if (!reference) return null;
  if (reference.startsWith('#')) {
    const contained = medication.contained?.find((item) => item.resourceType === 'Medication' && item.id === reference.slice(1));
    const code = contained ? MedicationSchema.safeParse(contained) : null;
    return code?.success ? (code.data.code ?? null) : null;
  }
  return medications.get(reference) ?? medications.get(reference.replace(/^.*\/(Medication\/[^/]+)$/, '$1')) ?? null;
}

// ---- Observation ----

type Observation = z.infer<typeof ObservationSchema>;

interface Found extends Latest {
  /** What competes for "latest": a measure name, or the kind (smoking, pregnancy) or scale. */
  key: string;
}

/**
 * Only the latest observation of each measure is kept (by its effective time; on a tie, the later entry):
 * criteria ask about a person's current values ("HbA1c 7-10%"), and a bundle carries years of them.
 */
function keepLatest(latest: Map<string, Latest>, key: string, found: Latest): void {
  const kept = latest.get(key);
  if (!kept || (found.time ?? -Infinity) >= (kept.time ?? -Infinity)) latest.set(key, found);
}

function readObservation(observation: Observation, entry: Entry, at: number, skip: Skip, warnings: string[]): Found[] {
  if (observation.status === 'entered-in-error' || observation.status === 'cancelled') return [];
  const effective =
    observation.effectiveDateTime ??
    observation.effectiveInstant ??
    observation.effectivePeriod?.end ??
    observation.effectivePeriod?.start ??
    observation.issued;
  const parsedTime = effective ? Date.parse(effective) : NaN;
  const time = Number.isNaN(parsedTime) ? null : parsedTime;
  const observedOn = datePart(effective);
  const loinc = loincCodes(observation.code);
  const base = { observedOn, sourceRef: entry.ref };
  const display = displayOf(observation.code, LOINC);

  if (loinc.includes(SMOKING_STATUS) || loinc.includes(PREGNANCY_STATUS)) {
    const smoking = loinc.includes(SMOKING_STATUS);
    const answer = observation.valueCodeableConcept;
    const status = answer ? answerStatus(answer, smoking ? SMOKING_ANSWERS : PREGNANCY_ANSWERS, smoking ? smokingFromText : pregnancyFromText) : null;
    if (!status) return [];
    const answerText = displayOf(answer!, SNOMED);
    const kind = smoking ? 'smoking' : 'pregnancy';
    return [
      {
        key: kind,
        at,
        time,
        fact: fact({
          kind,
          name: kind,
          status,
          valueText: clip(answerText, 300),
          observedOn,
          sourceRef: entry.ref,
          sourceText: clip(joinText(display, answerText), 2000),
          code: `${LOINC}|${smoking ? SMOKING_STATUS : PREGNANCY_STATUS}`,
        }),
      },
    ];
  }

  if (loinc.includes(ECOG) || loinc.includes(KARNOFSKY)) {
    const scale = loinc.includes(ECOG) ? 'ECOG' : 'Karnofsky';
    const score = performanceScore(observation, scale);
    if (score === null) {
      skip(entry, `its ${scale} score could not be read`);
      return [];
    }
    return [
      {
        key: `performance ${scale}`,
        at,
        time,
        fact: fact({
          kind: 'performance_status',
          name: `${scale} performance status`,
          value: score,
          valueText: scale,
          ...base,
          sourceText: clip(joinText(display, String(score)), 2000),
          code: `${LOINC}|${scale === 'ECOG' ? ECOG : KARNOFSKY}`,
        }),
      },
    ];
  }

  const found: Found[] = [];
  const lab = (code: CodeableConcept, quantity: Quantity | undefined, offset: number) => {
    if (!quantity || typeof quantity.value !== 'number') return;
    const measure = measureOf(code);
    if (!measure) {
      const analyte = analyteValueOf(displayOf(code, LOINC), quantity);
      if (analyte) found.push(analyteFound(analyte, code, quantity, { at: at + offset, time, ...base }));
      return;
    }
    if (quantity.comparator) {
      // "<0.1": a bound, not a value the matcher can compare as one.
      skip(entry, `its ${measure.measure.name} is a bound ("${clip(quantity.comparator, 4)}"), not a value`);
      return;
    }
    const written = quantity.code ?? quantity.unit;
    const converted = canonical(measure.measure, quantity.value, written ? (UCUM_UNITS[written] ?? written) : undefined);
    // "UACR 45" with no unit: mg/g or mg/mmol, a factor of nine apart (decision 323).
    if (!converted.unit && measure.measure.unitRequired) {
      skip(entry, `its ${measure.measure.name} has no unit`);
      return;
    }
    if (implausible(measure.measure, converted.value, converted.unit)) {
      skip(entry, `its ${measure.measure.name} (${converted.value}) is not possible in ${converted.unit}`);
      return;
    }
    // Kept in the way people write it (lb, not UCUM's [lb_av]) when the measure has no canonical unit.
    const unit = measure.measure.unit ? converted.unit : written ? (UCUM_UNITS[written] ?? written) : written;
    if (measure.measure.unit && unit !== measure.measure.unit) {
      // A display that only resembles a measure ("BMI percentile", "platelet mean volume") has another unit.
      if (measure.byText) return;
      warnings.push(`Observation ${entry.ref ?? `(entry ${entry.index + 1})`}: ${measure.measure.name} kept in its own unit (${clip(written ?? 'none', 40)}).`);
    }
    const words = displayOf(code, LOINC);
    const readable = quantity.unit ?? written;
    const shownUnit = readable ? (UCUM_UNITS[readable] ?? readable) : undefined;
    found.push({
      key: measure.measure.name,
      at: at + offset,
      time,
      fact: fact({
        kind: 'lab',
        name: measure.measure.name,
        value: converted.value,
        unit: clip(unit ?? null, 40),
        ...base,
        // Quoted with the record's human-readable unit (Quantity.unit), not its UCUM code ([lb_av]).
        sourceText: clip(joinText(words, `${quantity.value}${shownUnit ? ` ${shownUnit}` : ''}`), 2000),
        code: measure.loinc ? `${LOINC}|${measure.loinc}` : codeOf(code, LOINC),
      }),
    });
  };
  lab(observation.code, observation.valueQuantity, 0);
  // Panels (blood pressure 85354-9) carry their values in components: systolic 8480-6, diastolic 8462-4.
  observation.component?.forEach((component, index) => {
    lab(component.code, component.valueQuantity, index + 1);
  });
  return found;
}

/** A lab fact of an analyte the measures table does not hold (decision 308), competing for "latest" under its name. */
function analyteFound(
  analyte: AnalyteValue,
  code: CodeableConcept,
  quantity: Quantity,
  where: { at: number; time: number | null; observedOn: string | null; sourceRef: string | null },
): Found {
  const { at, time, ...base } = where;
  const shownUnit = quantity.unit ?? analyte.unit;
  return {
    key: analyte.name,
    at,
    time,
    fact: fact({
      kind: 'lab',
      ...analyte,
      ...base,
      sourceText: clip(joinText(displayOf(code, LOINC), `${analyte.value} ${shownUnit}`), 2000),
      code: codeOf(code, LOINC),
    }),
  };
}

/** Specimens and derived figures whose names contain a measure's words but are not it (urine creatinine, ratios). */
const NOT_THE_MEASURE = /\b(?:urine|stool|feces|cerebral spinal fluid|cerebrospinal|csf|sputum|percentile|ratio|per age)\b/i;

function measureOf(code: CodeableConcept): { measure: Measure; loinc: string | null; byText: boolean } | null {
  for (const loinc of loincCodes(code)) {
    const name = LOINC_MEASURES[loinc];
    const measure = name ? MEASURES.find((item) => item.name === name) : undefined;
    if (measure) return { measure, loinc, byText: false };
  }
  // An unknown LOINC code: the display may still name a measure as criteria do.
  const display = displayOf(code, LOINC);
  if (!display || NOT_THE_MEASURE.test(display)) return null;
  const measure = MEASURES.find((item) => item.name !== 'ALT/AST' && item.pattern.test(display));
  return measure ? { measure, loinc: null, byText: true } : null;
}

function answerStatus(answer: CodeableConcept, codes: Record<string, FactStatus | null>, fromText: (text: string) => FactStatus | null): FactStatus | null {
  for (const coding of answer.coding ?? []) if (coding.code && coding.code in codes) return codes[coding.code];
  const words = displayOf(answer, SNOMED);
  return words ? fromText(words) : null;
}

function smokingFromText(words: string): FactStatus | null {
  if (/\bunknown\b/i.test(words)) return null;
  if (/\bnever\b|\bnon-?smoker\b/i.test(words)) return 'absent';
  if (/\b(?:former|ex-?smoker|ex smoker|quit)\b/i.test(words)) return 'history';
  if (/\b(?:current|every day|some days?|daily|smokes?|smoker)\b/i.test(words)) return 'present';
  return null;
}

function pregnancyFromText(words: string): FactStatus | null {
  if (/\bunknown\b/i.test(words)) return null;
  if (/\bnot pregnant\b/i.test(words)) return 'absent';
  return /\bpregnan/i.test(words) ? 'present' : null;
}

function performanceScore(observation: Observation, scale: 'ECOG' | 'Karnofsky'): number | null {
  const top = scale === 'ECOG' ? 5 : 100;
  const inRange = (value: number | null | undefined) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= top ? value : null);
  const direct = inRange(observation.valueInteger) ?? inRange(observation.valueQuantity?.value);
  if (direct !== null) return direct;
  const answer = observation.valueCodeableConcept;
  if (!answer) return null;
  for (const coding of answer.coding ?? []) if (scale === 'ECOG' && coding.code && coding.code in ECOG_ANSWERS) return ECOG_ANSWERS[coding.code];
  // "ECOG 1: restricted in physically strenuous activity", "80%".
  const number = /\b(\d{1,3})\b/.exec(displayOf(answer, LOINC) ?? '');
  return number ? inRange(Number(number[1])) : null;
}

// ---- helpers ----

function fact(partial: Pick<CandidateFactInput, 'kind' | 'name'> & Partial<CandidateFactInput>): CandidateFactInput {
  return {
    conceptId: null,
    status: null,
    value: null,
    unit: null,
    valueText: null,
    observedOn: null,
    sourceRef: null,
    sourceText: null,
    code: null,
    ...partial,
    source: 'fhir',
    span: null,
    criterionId: null,
  };
}

const firstCode = (concept: CodeableConcept | undefined) => concept?.coding?.find((coding) => coding.code)?.code ?? null;
const loincCodes = (concept: CodeableConcept) =>
  (concept.coding ?? []).filter((coding) => coding.system === LOINC && coding.code).map((coding) => coding.code!);

/** The words of a code: its text, else the display of the preferred system's coding, else any display. */
function displayOf(concept: CodeableConcept, system: string): string | null {
  const codings = concept.coding ?? [];
  return (
    text(concept.text) ?? text(codings.find((coding) => coding.system === system)?.display) ?? text(codings.find((coding) => coding.display?.trim())?.display)
  );
}

/** "system|code" of the preferred system's coding, else of the first coding that has both. */
function codeOf(concept: CodeableConcept, system: string): string | null {
  const codings = (concept.coding ?? []).filter((coding) => coding.system && coding.code);
  const coding = codings.find((item) => item.system === system) ?? codings[0];
  return coding ? clip(`${coding.system}|${coding.code}`, 200) : null;
}

/** The calendar date of a FHIR date or dateTime as written (its own time zone); null for a year or month alone. */
function datePart(value: string | undefined): string | null {
  const match = value ? /^(\d{4}-\d{2}-\d{2})(?:$|T)/.exec(value) : null;
  return match ? match[1] : null;
}

const text = (value: string | undefined | null) => (value?.trim() ? value.trim() : null);
const joinText = (first: string | null, second: string | null) => [first, second].filter(Boolean).join(': ') || null;

function clip(value: string | null, max: number): string | null {
  return value === null ? null : value.length > max ? value.slice(0, max) : value;
}

/** Where a resource failed its shape, without any of its values (they may be patient data). */
function unreadable(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'the resource';
  return `${where} could not be read`;
}
