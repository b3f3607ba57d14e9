import type { CandidateFactInput } from '../../../contract/matching';
import { nameWithQualifiers } from './note-details';

/**
 * A spine condition found on a scan dates from the limb pain it causes (decision 259). A spine note states how long the
 * complaint has lasted on the pain ("6 weeks of neck pain radiating to the arm", "sciatica for 4 months") and names
 * the cause on the scan without a time ("MRI shows a C5-C6 disc herniation"): a coordinator reads the herniation's
 * symptoms, and the nerve root's, as that long. So a disc herniation or a radiculopathy with no time of its own takes
 * the length of the radiating pain of its part of the spine: arm pain for the neck, leg pain or sciatica for the low
 * back (a radiculopathy that states its own length and part counts too). Carried only when
 * - the herniation or radiculopathy names that part of the spine, or names none and only one part has such a pain;
 * - every such pain of that part states the same length (two lengths: which one dates the herniation is unclear);
 * - the pain states a length, not only a start ("pain began after a fall in 2019" dates nothing here).
 * Back or neck pain alone is not carried: a long back pain may predate the herniation found today.
 * For the same reason a herniation whose part of the spine has such a pain (with or without a length) is symptomatic
 * (decision 261): "symptomatic lumbar disc herniation" is met by leg pain with an L4-L5 herniation on the MRI.
 */
const HERNIATION = 'mesh:D007405';
const RADICULOPATHY = 'mesh:D011843';
const SPINE_CAUSES = new Set([HERNIATION, RADICULOPATHY]);
/** The radiating pain of each part of the spine. */
const LIMB_PAIN_PART: Record<string, SpinePart> = { 'cohortly:arm-pain': 'cervical', 'cohortly:leg-pain': 'lumbar', 'mesh:D012585': 'lumbar' };
const PARTS = ['cervical', 'thoracic', 'lumbar'] as const;
type SpinePart = (typeof PARTS)[number];

interface NamedFact {
  fact: CandidateFactInput;
  named?: { name: string; qualifiers: string[] };
}

const partsNamed = (draft: NamedFact): SpinePart[] => PARTS.filter((part) => draft.named?.qualifiers.includes(part));
const hasLength = (fact: CandidateFactInput) => fact.status === 'present' && fact.value !== null && fact.unit !== null && fact.observedOn !== null;

/** The part of the spine a radiating pain comes from, or undefined for any other fact. */
function painPart(draft: NamedFact): SpinePart | undefined {
  const { fact } = draft;
  if (!fact.conceptId || fact.status !== 'present') return undefined;
  const named = partsNamed(draft);
  return LIMB_PAIN_PART[fact.conceptId] ?? (fact.conceptId === RADICULOPATHY && named.length === 1 ? named[0] : undefined);
}

/** The part of the spine a herniation or radiculopathy is in: its own, or the one part the note's pains name. */
function causePart(draft: NamedFact, parts: ReadonlySet<SpinePart>): SpinePart | undefined {
  const named = partsNamed(draft);
  return named.length === 1 ? named[0] : named.length === 0 && parts.size === 1 ? [...parts][0] : undefined;
}

/** The radiating pain's length per part of the spine, or null for a part whose pains disagree. */
function painLengths(drafts: readonly NamedFact[]): Map<SpinePart, CandidateFactInput | null> {
  const lengths = new Map<SpinePart, CandidateFactInput | null>();
  for (const draft of drafts) {
    const { fact } = draft;
    const part = painPart(draft);
    if (!part || !hasLength(fact)) continue;
    const held = lengths.get(part);
    if (held === undefined) lengths.set(part, fact);
    else if (held && (held.value !== fact.value || held.unit !== fact.unit)) lengths.set(part, null);
  }
  return lengths;
}

/**
 * Gives each undated herniation or radiculopathy kept (one per concept) the length of its part's radiating pain, in
 * place; the pains are read from every mention (`read`), so a second pain of another length is seen.
 */
export function dateSpineCausesByTheirPain(read: readonly NamedFact[], kept: Iterable<NamedFact>): void {
  const lengths = painLengths(read);
  const painful = new Set(read.map(painPart).filter((part) => part !== undefined));
  if (!painful.size) return;
  for (const draft of kept) {
    const { fact } = draft;
    if (!fact.conceptId || !SPINE_CAUSES.has(fact.conceptId) || fact.status !== 'present') continue;
    const part = causePart(draft, painful);
    if (fact.conceptId === HERNIATION && part && painful.has(part)) markSymptomatic(draft);
    if (fact.observedOn !== null || fact.value !== null) continue;
    const pain = part ? lengths.get(part) : undefined;
    if (pain) draft.fact = { ...draft.fact, value: pain.value, unit: pain.unit, observedOn: pain.observedOn };
  }
}

/** A herniation of a part of the spine with a radiating pain is symptomatic, unless its own words say either. */
function markSymptomatic(draft: NamedFact): void {
  const named = draft.named;
  if (!named || named.qualifiers.some((word) => word === 'symptomatic' || word === 'asymptomatic')) return;
  named.qualifiers = ['symptomatic', ...named.qualifiers];
  draft.fact = { ...draft.fact, name: nameWithQualifiers(named.name, named.qualifiers) };
}
