import { vocabulary } from '../trials/vocabulary';
import { lexicon } from '../trials/vocabulary/lexicon';
import { isA, SPINE_OPERATIONS } from './concept-hierarchy';

/**
 * Operations under the trial idioms that name a group of them (decision 306). "Any surgery within 28 days" (the hand
 * concept `prior-surgery`) is every operation: a MeSH heading of operations (tree E04: a cholecystectomy, a
 * laminectomy) or a hand concept of one. "Prior spine surgery" is every operation on the spine: a diskectomy,
 * laminectomy, laminoplasty, foraminotomy or spinal fusion, which MeSH files under orthopedic and neurosurgical
 * procedures, not under one spine heading (the group decision 205 made for denials, now both ways). The note must say
 * the operation was done (a past fact): a present one may be the operation the person is waiting for.
 */
const ANY_OPERATION = 'cohortly:prior-surgery';
const SPINE_OPERATION = 'cohortly:spine-surgery';

/** Hand concepts of operations (../trials/vocabulary/hand): each is an operation, as a MeSH E04 heading is. */
const HAND_OPERATIONS = new Set([
  'cohortly:major-surgery',
  'cohortly:spine-surgery',
  'cohortly:neck-surgery',
  'cohortly:microdiscectomy',
  'cohortly:bariatric-surgery',
]);

/**
 * Whether the concept is an operation: a hand concept of one, or a MeSH heading in the operations' tree (E04; its root,
 * "Surgical Procedures, Operative", is not in the lexicon) and not in diagnosis (E01: a biopsy is filed under both, a
 * test more than an operation) nor a disease (C).
 */
const operationCache = new Map<string, boolean>();
export function isOperation(conceptId: string): boolean {
  if (HAND_OPERATIONS.has(conceptId)) return true;
  let found = operationCache.get(conceptId);
  if (found === undefined) {
    const at = vocabulary().lexiconIndex(conceptId);
    const trees = at === undefined ? [] : lexicon().concepts[at].trees;
    found = trees.some((tree) => tree.startsWith('E04')) && !trees.some((tree) => tree.startsWith('E01') || tree.startsWith('C'));
    if (operationCache.size > 20_000) operationCache.clear();
    operationCache.set(conceptId, found);
  }
  return found;
}

/** Whether an operation of `conceptId` is one of the group `groupId` names (any operation, any spine operation). */
export function operationInGroup(conceptId: string, groupId: string): boolean {
  if (conceptId === groupId) return false;
  if (groupId === ANY_OPERATION) return isOperation(conceptId);
  if (groupId === SPINE_OPERATION) return SPINE_OPERATIONS.some((member) => conceptId === member || isA(conceptId, member));
  return false;
}
