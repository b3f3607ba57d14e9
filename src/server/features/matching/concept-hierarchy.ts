import { ALLERGY_PREFIX, ancestorsOf, inClass, meshIdByName, NAMED_MEDICINE_PREFIX, isA as underInTree } from '../trials/vocabulary';

/**
 * The concept hierarchy the matcher reads conditions and medicines through (issue 31): a fact of a concept meets a
 * rule of any of its ancestors in MeSH's tree ("NSTEMI" meets "myocardial infarction", "lung adenocarcinoma" meets
 * "lung cancer", "NSCLC" is caught by "no malignancy"), and a medicine meets a rule of its class by its
 * pharmacological action (atorvastatin is a statin). The tree and the actions come with the vocabulary (issue 30,
 * decision 127); an id the vocabulary cannot place is only itself.
 */
export function isA(conceptId: string, ancestorId: string): boolean {
  if (conceptId.startsWith(ALLERGY_PREFIX)) return allergyIsA(conceptId.slice(ALLERGY_PREFIX.length), ancestorId);
  return underInTree(conceptId, ancestorId) || inClass(conceptId, ancestorId);
}

/**
 * An allergy to a medicine (a note's "allergic to amoxicillin") is an allergy to its class ("an allergy to penicillins")
 * and a drug allergy ("no known drug allergies"), never the medicine itself.
 */
let drugAllergy: string | null | undefined;
function allergyIsA(medicineId: string, ancestorId: string): boolean {
  if (ancestorId.startsWith(ALLERGY_PREFIX)) return isA(medicineId, ancestorId.slice(ALLERGY_PREFIX.length));
  if (drugAllergy === undefined) drugAllergy = meshIdByName('Drug Hypersensitivity') ?? null;
  return drugAllergy !== null && (ancestorId === drugAllergy || isA(drugAllergy, ancestorId));
}

/**
 * Operations a denial of a group of operations also denies, where the hierarchy has no heading for the group (decision
 * 205). "No prior spine surgery" says no diskectomy (open, micro- or percutaneous), laminectomy, laminoplasty,
 * foraminotomy or spinal fusion: MeSH files these under orthopedic and neurosurgical procedures, not under one
 * spine heading. One way only: a diskectomy on record is not read as "spine surgery" for an exclusion (decision 183
 * dropped that link), so a misread criterion cannot fail a person through it. Vertebroplasty and kyphoplasty are left
 * out: a note may call them procedures, not surgery.
 * "No prior immunosuppressive therapy" says no rituximab or another anti-CD20 antibody (decision 252): B-cell depletion
 * is immunosuppression in every field that gives it, but the vocabulary files anti-CD20 apart from its immunosuppressants.
 * Other biologics are left out: whether a TNF or JAK inhibitor counts as "immunosuppressive therapy" varies by field.
 */
const DENIAL_REACHES: Record<string, readonly string[]> = {
  'cohortly:spine-surgery': ['mesh:D017586', 'mesh:D007796', 'mesh:D065406', 'mesh:D059526', 'mesh:D013123'],
  'cohortly:immunosuppressants': ['cohortly:anti-cd20'],
};

/** The spine operations a group of them names where MeSH has no heading (operations.ts reads a past one under it). */
export const SPINE_OPERATIONS = DENIAL_REACHES['cohortly:spine-surgery'];

/** Whether a denial of `deniedId` ("no X") also denies `conceptId`: it is X or under X, or an operation the group names. */
export function deniedWith(conceptId: string, deniedId: string): boolean {
  if (isA(conceptId, deniedId)) return true;
  const reaches = DENIAL_REACHES[deniedId];
  if (reaches) for (const member of reaches) if (conceptId === member || isA(conceptId, member)) return true;
  return isStemAntibody(conceptId) && deniesEveryAntibody(deniedId);
}

/**
 * A condition that shows another by its definition, where the vocabulary files them apart (decision 297): sciatica is
 * pain spreading from the buttock down the leg, so a person with sciatica has leg pain. One way only, and only for a
 * rule that wants the shown condition (`namesRuleConcept`): an exclusion of leg pain is often one the criteria reader
 * narrowed ("non-radicular leg pain"), and a person must never fail it through this link.
 */
const SHOWS: Record<string, readonly string[]> = {
  'mesh:D012585': ['cohortly:leg-pain'],
};
export function showsByDefinition(conceptId: string, wantedId: string): boolean {
  for (const heading in SHOWS) if (SHOWS[heading].includes(wantedId) && (conceptId === heading || isA(conceptId, heading))) return true;
  return false;
}

/**
 * A denial of one part's surgery reaches the spine operations on that part, where the rule names the part (decision
 * 284): "no prior neck surgery" clears "prior cervical spine surgery" (or a cervical diskectomy), never an unqualified
 * or a lumbar one, since the neck is one part of the spine.
 */
const PART_DENIALS: Record<string, { qualifier: string; reaches: string }> = {
  'cohortly:neck-surgery': { qualifier: 'cervical', reaches: 'cohortly:spine-surgery' },
};
export function deniedForPart(conceptId: string, deniedId: string, qualifiers: readonly string[] | undefined): boolean {
  const part = PART_DENIALS[deniedId];
  if (!part || !qualifiers?.length) return false;
  for (const qualifier of qualifiers) if (qualifier !== part.qualifier) return false;
  return deniedWith(conceptId, part.reaches);
}

/**
 * A medicine known only by its "-mab" stem (decision 272: a monoclonal antibody MeSH has no heading for, "spesolimab")
 * is a biologic (decision 282): "never received a biologic", "biologic-naive" or "no prior monoclonal antibody" denies it,
 * as it denies the antibodies MeSH does place. Only the whole class: a denial of one kind ("no TNF inhibitor") does not.
 */
function isStemAntibody(conceptId: string): boolean {
  return conceptId.startsWith(NAMED_MEDICINE_PREFIX) && conceptId.endsWith('mab');
}
let monoclonalAntibodies: string | null | undefined;
function deniesEveryAntibody(deniedId: string): boolean {
  if (monoclonalAntibodies === undefined) monoclonalAntibodies = meshIdByName('Antibodies, Monoclonal') ?? null;
  // The heading itself, or the vocabulary's "biologics" ("biologic therapy", "monoclonal antibodies"), filed under it.
  return deniedId === BIOLOGICS || (monoclonalAntibodies !== null && deniedId === monoclonalAntibodies);
}
const BIOLOGICS = 'cohortly:biologics';

const ancestorCache = new Map<string, ReadonlySet<string>>();
function ancestorSet(conceptId: string): ReadonlySet<string> {
  let found = ancestorCache.get(conceptId);
  if (!found) {
    if (ancestorCache.size > 20_000) ancestorCache.clear();
    ancestorCache.set(conceptId, (found = new Set(ancestorsOf(conceptId))));
  }
  return found;
}

/**
 * Whether two conditions are related in MeSH's tree: one under the other, or under a common heading ("cauda equina
 * syndrome" and "sciatica" are both peripheral nervous system diseases). Used to keep "otherwise healthy" from
 * answering an exclusion about the person's own illness (general-denials.ts).
 */
export function related(a: string, b: string): boolean {
  if (a === b || isA(a, b) || isA(b, a)) return true;
  const above = ancestorSet(b);
  for (const ancestor of ancestorSet(a)) if (above.has(ancestor)) return true;
  return false;
}

/** A heading at least three levels deep ("C08.381.423", pulmonary hypertension) has two headings above it or more. */
const NEAR_MIN_ANCESTORS = 2;
const nearCache = new Map<string, boolean>();

/** The headings directly above a concept: its ancestors that are not above another of its ancestors. */
function parentsOf(conceptId: string): string[] {
  const above = ancestorSet(conceptId);
  const parents: string[] = [];
  for (const candidate of above) {
    let higher = false;
    for (const other of above) if (other !== candidate && ancestorSet(other).has(candidate)) higher = true;
    if (!higher) parents.push(candidate);
  }
  return parents;
}

const deepEnough = (heading: string) => ancestorSet(heading).size >= NEAR_MIN_ANCESTORS;

/**
 * Whether a condition is near another in MeSH's tree: one directly above the other, or both directly under the same
 * heading three levels deep or more ("persistent fetal circulation syndrome" and "pulmonary arterial hypertension"
 * under pulmonary hypertension; "spinal stenosis" and "intervertebral disc displacement" under spinal
 * diseases). Not the same illness: the matcher reads it as a hint that the person may have the condition an inclusion
 * wants, never as having it (decision 164).
 */
export function nearInTree(conceptId: string, otherId: string): boolean {
  if (conceptId === otherId) return false;
  const cacheKey = `${conceptId} ${otherId}`;
  let found = nearCache.get(cacheKey);
  if (found === undefined) {
    if (nearCache.size > 50_000) nearCache.clear();
    const mine = parentsOf(conceptId);
    const theirs = parentsOf(otherId);
    found =
      (mine.includes(otherId) && deepEnough(otherId)) ||
      (theirs.includes(conceptId) && deepEnough(conceptId)) ||
      mine.some((parent) => theirs.includes(parent) && deepEnough(parent));
    nearCache.set(cacheKey, found);
  }
  return found;
}

/** MeSH's Neurologic Manifestations: pain, numbness, dizziness, photophobia; filed under Nervous System Diseases. */
const NEUROLOGIC_MANIFESTATIONS = 'mesh:D009461';
const symptomLinkCache = new Map<string, boolean>();

/**
 * Whether a condition reaches a heading only through MeSH's Neurologic Manifestations (decision 179). MeSH files every
 * pain and every sensory complaint there, under Nervous System Diseases, so by the tree alone neck pain "is" a
 * neurologic deficit and chest pain a nervous system disease; a coordinator reads neither so. Such a link does not
 * make the symptom that heading. A condition with another way up stays linked (sciatica is also a peripheral nerve
 * disease), and the heading's own name or a symptom under it ("back pain" of "low back pain") is not touched.
 */
export function onlyThroughSymptoms(conceptId: string, headingId: string): boolean {
  if (conceptId === headingId || !(headingId === NEUROLOGIC_MANIFESTATIONS || isA(NEUROLOGIC_MANIFESTATIONS, headingId))) return false;
  const cacheKey = `${conceptId} ${headingId}`;
  let found = symptomLinkCache.get(cacheKey);
  if (found === undefined) {
    if (symptomLinkCache.size > 50_000) symptomLinkCache.clear();
    found = isA(conceptId, NEUROLOGIC_MANIFESTATIONS);
    if (found)
      for (const ancestor of ancestorSet(conceptId)) {
        if (ancestor === headingId || ancestor === NEUROLOGIC_MANIFESTATIONS || isA(ancestor, NEUROLOGIC_MANIFESTATIONS)) continue;
        if (isA(ancestor, headingId)) found = false;
      }
    symptomLinkCache.set(cacheKey, found);
  }
  return found;
}

/**
 * Whether a concept is one of these MeSH headings (by name) or under one, answered once per concept: the note reader
 * asks it for each condition it reads (lifelong diagnoses, infections acute by their nature).
 */
export function underHeadings(names: readonly string[]): (conceptId: string) => boolean {
  let headings: string[] | null = null;
  const cache = new Map<string, boolean>();
  return (conceptId) => {
    let found = cache.get(conceptId);
    if (found === undefined) {
      headings ??= names.map(meshIdByName).filter((id): id is string => Boolean(id));
      found = headings.some((heading) => heading === conceptId || isA(conceptId, heading));
      if (cache.size > 20_000) cache.clear();
      cache.set(conceptId, found);
    }
    return found;
  };
}
