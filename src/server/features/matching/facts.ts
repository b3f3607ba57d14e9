import type {
  CandidateClinicalRecord,
  CandidateFact,
  CandidateFactInput,
  ClinicalNote,
  CreateCandidateFactInput,
  FhirImportResult,
} from '../../../contract/matching';
import { CreateCandidateSchema, type CreateCandidateInput } from '../../../contract/candidates';
import { QUALIFIER_WORDS, type CriterionRule } from '../../../contract/trials';
import { runScoped, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import type { Transaction } from '../../db/scoped';
import { AppError, notFound } from '../../http/errors';
import { recordAudit } from '../../audit';
import { createCandidate, targetOrganization } from '../candidates/service';
import { readFhirBundle } from './fhir';
import { extractNoteFacts } from './note-extractor';
import {
  type CandidateFactRow,
  deleteFact as deleteFactRow,
  deleteFactsOfSource,
  deleteNote,
  insertFact,
  insertFacts,
  insertNote,
  listFacts,
  listNotes,
  replaceFacts,
} from './queries-facts';
import { fillMissingDemographics, findCandidateBasics, findCandidateByContact } from './queries-person';

/** Clinical notes written in bulk and read into facts (decision 132): the demo's referral notes. */
export { storeClinicalNotes, type NoteToStore } from './note-intake';

/**
 * Candidate clinical facts (decision 025): what each source says of a person's health. Notes are read by the
 * deterministic extractor when saved; a FHIR bundle makes or updates a candidate with its facts; prescreen
 * answers become facts when a result is recorded. Every change is audited with counts only (never the text).
 */

/** A candidate's facts in the caller's transaction (the voice simulator's synthetic person answers by them). */
export async function factsOfCandidate(tx: Transaction, candidateId: string): Promise<CandidateFactRow[]> {
  return listFacts(tx, candidateId);
}

export function toFact(row: CandidateFactRow): CandidateFact {
  return {
    id: row.id,
    candidateId: row.candidateId,
    kind: row.kind,
    conceptId: row.conceptId,
    name: row.name,
    status: row.status,
    value: row.value,
    unit: row.unit,
    valueText: row.valueText,
    observedOn: row.observedOn,
    source: row.source,
    sourceRef: row.sourceRef,
    sourceText: row.sourceText,
    span: row.spanStart != null && row.spanEnd != null ? { start: row.spanStart, end: row.spanEnd } : null,
    criterionId: row.criterionId,
    code: row.code,
    recordedAt: row.recordedAt.toISOString(),
  };
}

async function loadCandidate(tx: Transaction, candidateId: string) {
  const person = await findCandidateBasics(tx, candidateId);
  if (!person) throw notFound('Candidate not found');
  return person;
}

export async function clinicalRecord(db: Database, scope: RequestScope, candidateId: string): Promise<CandidateClinicalRecord> {
  return runScoped(db, scope, async (tx) => {
    await loadCandidate(tx, candidateId);
    const notes = await listNotes(tx, candidateId);
    const facts = await listFacts(tx, candidateId);
    const perNote = new Map<string, number>();
    for (const fact of facts) if (fact.source === 'note' && fact.sourceRef) perNote.set(fact.sourceRef, (perNote.get(fact.sourceRef) ?? 0) + 1);
    return {
      notes: notes.map((note) => ({
        id: note.id,
        candidateId: note.candidateId,
        body: note.body,
        authorName: note.authorName,
        createdAt: note.createdAt.toISOString(),
        factCount: perNote.get(note.id) ?? 0,
      })),
      facts: facts.map(toFact),
    };
  });
}

/** Saves a clinical note and reads it into facts in the same transaction. */
export async function addClinicalNote(
  db: Database,
  scope: RequestScope,
  candidateId: string,
  body: string,
): Promise<{ note: ClinicalNote; facts: CandidateFact[] }> {
  return runScoped(db, scope, async (tx) => {
    const person = await loadCandidate(tx, candidateId);
    const note = await insertNote(tx, { organizationId: person.organizationId, candidateId, body, authorUserId: scope.userId });
    const read = extractNoteFacts(body, { noteId: note.id });
    const facts = await replaceFacts(tx, person.organizationId, candidateId, { source: 'note', sourceRef: note.id }, read);
    await recordAudit(tx, {
      organizationId: person.organizationId,
      actorUserId: scope.userId,
      action: 'candidate.clinical_note.add',
      entityType: 'candidate',
      entityId: candidateId,
      changes: { noteId: note.id, length: body.length, facts: facts.length },
    });
    const authorName = (await listNotes(tx, candidateId)).find((row) => row.id === note.id)?.authorName ?? null;
    return {
      note: { id: note.id, candidateId, body: note.body, authorName, createdAt: note.createdAt.toISOString(), factCount: facts.length },
      facts: facts.map(toFact),
    };
  });
}

export async function deleteClinicalNote(db: Database, scope: RequestScope, candidateId: string, noteId: string): Promise<void> {
  await runScoped(db, scope, async (tx) => {
    const person = await loadCandidate(tx, candidateId);
    if (!(await deleteNote(tx, candidateId, noteId))) throw notFound('Note not found');
    await recordAudit(tx, {
      organizationId: person.organizationId,
      actorUserId: scope.userId,
      action: 'candidate.clinical_note.delete',
      entityType: 'candidate',
      entityId: candidateId,
      changes: { noteId },
    });
  });
}

export async function addManualFact(db: Database, scope: RequestScope, candidateId: string, input: CreateCandidateFactInput): Promise<CandidateFact> {
  return runScoped(db, scope, async (tx) => {
    const person = await loadCandidate(tx, candidateId);
    const row = await insertFact(tx, person.organizationId, candidateId, {
      ...input,
      conceptId: conceptOf(input.kind, input.name),
      source: 'manual',
      sourceRef: scope.userId,
      sourceText: null,
      span: null,
      criterionId: null,
      code: null,
    });
    await recordAudit(tx, {
      organizationId: person.organizationId,
      actorUserId: scope.userId,
      action: 'candidate.fact.add',
      entityType: 'candidate',
      entityId: candidateId,
      changes: { factId: row.id, kind: input.kind },
    });
    return toFact(row);
  });
}

export async function deleteFact(db: Database, scope: RequestScope, candidateId: string, factId: string): Promise<void> {
  await runScoped(db, scope, async (tx) => {
    const person = await loadCandidate(tx, candidateId);
    const [removed] = await deleteFactRow(tx, candidateId, factId);
    if (!removed) throw notFound('Fact not found');
    await recordAudit(tx, {
      organizationId: person.organizationId,
      actorUserId: scope.userId,
      action: 'candidate.fact.delete',
      entityType: 'candidate',
      entityId: candidateId,
      changes: { factId, kind: removed.kind, source: removed.source },
    });
  });
}

/** A condition or medication typed by staff is named by the vocabulary when it knows the words. */
function conceptOf(kind: CandidateFactInput['kind'], name: string): string | null {
  if (kind !== 'condition' && kind !== 'medication') return null;
  const [first] = extractNoteFacts(name).filter((fact) => fact.kind === kind);
  return first?.conceptId ?? null;
}

// ---- FHIR ----

/**
 * A FHIR R4 bundle of one patient: a new candidate with its facts, or, when the patient's phone or email is
 * already a candidate's, that candidate's health-record facts replaced (the bundle is the newer record).
 */
export async function importFhirBundle(db: Database, scope: RequestScope, organizationId: string | undefined, bundle: unknown): Promise<FhirImportResult> {
  const orgId = targetOrganization(scope, organizationId);
  const reading = readFhirBundle(bundle);
  const warnings = [...reading.warnings];
  const { patient } = reading;
  const draft: CreateCandidateInput = {
    firstName: patient.firstName ?? 'Unknown',
    lastName: patient.lastName ?? '',
    dateOfBirth: patient.dateOfBirth,
    sex: patient.sex,
    phone: patient.phone,
    email: patient.email,
    addressLine: patient.addressLine,
    city: patient.city,
    region: patient.region,
    postalCode: patient.postalCode,
    country: patient.country,
    preferredLanguage: patient.preferredLanguage,
    source: 'fhir',
  };
  // A field the product would refuse (a fictional phone number) is left out with a warning, not the whole record.
  let parsed = CreateCandidateSchema.safeParse(draft);
  for (let attempt = 0; !parsed.success && attempt < 3; attempt++) {
    const fields = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
    for (const field of fields) {
      if (field === 'firstName') throw new AppError(400, "The bundle's patient has no usable name", 'FHIR_PATIENT_UNUSABLE');
      warnings.push(`The patient's ${field} was not usable and was left out`);
      delete (draft as Record<string, unknown>)[field];
    }
    parsed = CreateCandidateSchema.safeParse(draft);
  }
  if (!parsed.success) throw new AppError(400, "The bundle's patient could not be read", 'FHIR_PATIENT_UNUSABLE');
  const input = parsed.data;

  const existing = await runScoped(db, scope, (tx) => findCandidateByContact(tx, orgId, input.phone ?? null, input.email ?? null));
  if (existing) {
    const count = await runScoped(db, scope, async (tx) => {
      // The bundle is the newer health record: it replaces every fact an earlier bundle gave.
      await deleteFactsOfSource(tx, existing.id, 'fhir');
      const rows = await insertFacts(tx, existing.organizationId, existing.id, reading.facts);
      await fillMissingDemographics(tx, existing.id, { dateOfBirth: input.dateOfBirth ?? null, sex: input.sex ?? null });
      await recordAudit(tx, {
        organizationId: existing.organizationId,
        actorUserId: scope.userId,
        action: 'candidate.fhir_import',
        entityType: 'candidate',
        entityId: existing.id,
        changes: { outcome: 'merged', facts: rows.length },
      });
      return rows.length;
    });
    return { candidateId: existing.id, outcome: 'merged', factCount: count, warnings };
  }
  let count = 0;
  const created = await createCandidate(db, scope, orgId, input, async (tx, row) => {
    const rows = await insertFacts(tx, row.organizationId, row.id, reading.facts);
    count = rows.length;
    await recordAudit(tx, {
      organizationId: row.organizationId,
      actorUserId: scope.userId,
      action: 'candidate.fhir_import',
      entityType: 'candidate',
      entityId: row.id,
      changes: { outcome: 'created', facts: rows.length },
    });
  });
  return { candidateId: created.id, outcome: 'created', factCount: count, warnings };
}

// ---- prescreen answers ----

export interface AnsweredCriterion {
  criterionId: string;
  rule: CriterionRule | null;
  question: string;
  answer: unknown;
}

/**
 * Prescreen answers -> facts: an answered question linked to a criterion with a rule says something of the
 * person in the rule's terms ("Have you had a heart attack?" yes -> a heart attack, present). Answers that
 * say nothing a rule can use (free text, site staff's judgement) give no fact.
 */
export function factsFromAnswers(answers: AnsweredCriterion[], resultId: string, today: string): CandidateFactInput[] {
  const facts: CandidateFactInput[] = [];
  const base = (answer: AnsweredCriterion) => ({
    source: 'prescreen' as const,
    sourceRef: resultId,
    sourceText: `${answer.question} ${formatAnswer(answer.answer)}`.slice(0, 2000),
    span: null,
    criterionId: answer.criterionId,
    code: null,
    observedOn: today,
    value: null,
    unit: null,
    valueText: null,
  });
  for (const answer of answers) {
    const rule = answer.rule;
    if (!rule || answer.answer === null || answer.answer === undefined) continue;
    const yes = typeof answer.answer === 'boolean' ? answer.answer : null;
    const number = typeof answer.answer === 'number' ? answer.answer : null;
    switch (rule.type) {
      case 'condition':
      case 'medication': {
        if (yes === null) break;
        const concept = rule.concepts?.[0];
        const name = concept?.name ?? (rule.type === 'condition' ? rule.condition : rule.medication);
        // "Have you ever...?" yes is a history; a current question's yes is present.
        const status = yes ? (rule.history ? 'history' : 'present') : 'absent';
        const duration = rule.type === 'condition' && (rule.duration?.minDays || rule.duration?.maxDays) ? rule.duration : null;
        // "Have you had back pain for at least 3 months?" no: no pain, or pain for less long; neither is recorded.
        if (duration && !yes) break;
        // "... osteoporosis in a severe form?" (decision 077): no may be milder osteoporosis, so nothing is recorded; yes is
        // recorded with the qualifiers' words in the fact's name, which is how the matcher knows they hold.
        const qualifiers = rule.type === 'condition' && rule.qualifiers?.length ? rule.qualifiers : null;
        if (qualifiers && !yes) break;
        const said = qualifiers ? `, ${qualifiers.map((qualifier) => QUALIFIER_WORDS[qualifier].label).join(', ')}` : '';
        // A yes to a minimum says the condition has been there since at least that many days ago (evaluate.ts reads the
        // date as "known since"); to a maximum alone it says nothing more than today.
        const since = duration?.minDays ? daysBefore(today, duration.minDays) : today;
        for (const item of rule.concepts?.length ? rule.concepts : [{ id: null, name }]) {
          facts.push({ ...base(answer), kind: rule.type, conceptId: item.id, name: `${item.name}${said}`, status, observedOn: yes ? since : null });
        }
        break;
      }
      case 'lab':
        if (number !== null && !rule.relativeTo)
          facts.push({ ...base(answer), kind: 'lab', conceptId: null, name: rule.measure, status: null, value: number, unit: rule.unit ?? null });
        break;
      case 'age':
        if (number !== null) facts.push({ ...base(answer), kind: 'age', conceptId: null, name: 'age', status: null, value: number, unit: 'years' });
        break;
      case 'smoking':
        if (yes !== null) facts.push({ ...base(answer), kind: 'smoking', conceptId: null, name: 'smoking', status: yes ? 'present' : 'absent' });
        break;
      case 'pregnancy':
        if (yes !== null) facts.push({ ...base(answer), kind: 'pregnancy', conceptId: null, name: 'pregnancy', status: yes ? 'present' : 'absent' });
        break;
      case 'performance_status':
        if (number !== null)
          facts.push({
            ...base(answer),
            kind: 'performance_status',
            conceptId: null,
            name: `${rule.scale} performance status`,
            status: null,
            value: number,
            valueText: rule.scale,
          });
        break;
      default:
        break;
    }
  }
  return facts;
}

/** The YYYY-MM-DD date `days` days before a YYYY-MM-DD date (UTC). */
function daysBefore(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() - days);
  return at.toISOString().slice(0, 10);
}

function formatAnswer(value: unknown): string {
  if (value === true) return 'Yes';
  if (value === false) return 'No';
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}

/** Stores the facts of one prescreen result (replacing what an earlier version of that result said). */
export async function recordPrescreenFacts(
  tx: Transaction,
  organizationId: string,
  candidateId: string,
  resultId: string,
  answers: AnsweredCriterion[],
): Promise<number> {
  const facts = factsFromAnswers(answers, resultId, new Date().toISOString().slice(0, 10));
  const rows = await replaceFacts(tx, organizationId, candidateId, { source: 'prescreen', sourceRef: resultId }, facts);
  return rows.length;
}
