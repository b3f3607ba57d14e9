import type { Transaction } from '../../db/scoped';
import type { CallRow } from './queries';

/** A finished SITE_VISIT_SCHEDULING call books the visit the person agreed to. (Being written.) */
export async function bookVisitFromCall(_tx: Transaction, call: CallRow): Promise<CallRow> {
  return call;
}
