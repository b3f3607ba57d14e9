import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { normalizePhone } from '../../../contract/candidates';
import type { Executor } from '../../db/scoped';
import { escapeLike, uuidArray } from '../../db/postgres';
import { booking, candidate, prescreenForm, prescreenFormVersion, prescreenResult, trial } from '../../db/schema';
import { isUuid } from '../../../contract/ids';

export type FormRow = typeof prescreenForm.$inferSelect;
export type FormVersionRow = typeof prescreenFormVersion.$inferSelect;
export type ResultRow = typeof prescreenResult.$inferSelect;
export type NewResultRow = typeof prescreenResult.$inferInsert;
export type BookingRow = typeof booking.$inferSelect;
export type NewBookingRow = typeof booking.$inferInsert;

export async function findForm(executor: Executor, id: string): Promise<FormRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await executor.select().from(prescreenForm).where(eq(prescreenForm.id, id));
  return row;
}

export async function findFormVersion(executor: Executor, formId: string, version: number): Promise<FormVersionRow | undefined> {
  const [row] = await executor
    .select()
    .from(prescreenFormVersion)
    .where(and(eq(prescreenFormVersion.formId, formId), eq(prescreenFormVersion.version, version)));
  return row;
}

export async function findFormVersionById(executor: Executor, id: string): Promise<FormVersionRow | undefined> {
  const [row] = await executor.select().from(prescreenFormVersion).where(eq(prescreenFormVersion.id, id));
  return row;
}

export async function insertResult(executor: Executor, values: NewResultRow): Promise<ResultRow> {
  const [row] = await executor.insert(prescreenResult).values(values).returning();
  return row;
}

export async function findResult(executor: Executor, id: string, forUpdate = false): Promise<ResultRow | undefined> {
  if (!isUuid(id)) return undefined;
  const query = executor.select().from(prescreenResult).where(eq(prescreenResult.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function updateResult(executor: Executor, id: string, values: Partial<NewResultRow>): Promise<ResultRow> {
  const [row] = await executor
    .update(prescreenResult)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(prescreenResult.id, id))
    .returning();
  return row;
}

/** The newest result of a candidate for a trial. */
export async function latestResultFor(executor: Executor, candidateId: string, trialId: string): Promise<ResultRow | undefined> {
  const [row] = await executor
    .select()
    .from(prescreenResult)
    .where(and(eq(prescreenResult.candidateId, candidateId), eq(prescreenResult.trialId, trialId)))
    .orderBy(desc(prescreenResult.createdAt), desc(prescreenResult.id))
    .limit(1);
  return row;
}

// ---- the list (a result with what its shape needs: candidate name, trial title, form version number) ----

export interface ListedResultRow {
  result: ResultRow;
  firstName: string;
  lastName: string;
  trialTitle: string;
  trialPublicTitle: string | null;
  formVersion: number;
}

export interface ResultFilter {
  organizationIds: string[];
  candidateId?: string;
  sourceType?: ResultRow['sourceType'];
  aiRecommendation?: ResultRow['aiRecommendation'];
  reviewStatus?: ResultRow['reviewStatus'];
  search?: string;
}

function filterConditions(filter: ResultFilter): SQL[] {
  const conditions: SQL[] = [inArray(prescreenResult.organizationId, filter.organizationIds)];
  if (filter.candidateId) conditions.push(isUuid(filter.candidateId) ? eq(prescreenResult.candidateId, filter.candidateId) : sql`false`);
  if (filter.sourceType) conditions.push(eq(prescreenResult.sourceType, filter.sourceType));
  if (filter.aiRecommendation) conditions.push(eq(prescreenResult.aiRecommendation, filter.aiRecommendation));
  if (filter.reviewStatus) conditions.push(eq(prescreenResult.reviewStatus, filter.reviewStatus));
  const term = filter.search?.trim();
  if (term) {
    const pattern = `%${escapeLike(term.toLowerCase())}%`;
    const matches: SQL[] = [sql`lower(${candidate.firstName} || ' ' || ${candidate.lastName}) like ${pattern}`, sql`lower(${candidate.email}) like ${pattern}`];
    const phone = /^[\d\s()+.-]{7,}$/.test(term) ? normalizePhone(term) : null;
    if (phone) matches.push(eq(candidate.phone, phone));
    const digits = term.replace(/\D/g, '');
    if (digits.length >= 3 && /^[\d\s()+.-]+$/.test(term)) matches.push(sql`${candidate.phone} like ${`%${digits}%`}`);
    conditions.push(sql`(${sql.join(matches, sql` or `)})`);
  }
  return conditions;
}

const listedColumns = {
  result: prescreenResult,
  firstName: candidate.firstName,
  lastName: candidate.lastName,
  trialTitle: trial.title,
  trialPublicTitle: trial.publicTitle,
  formVersion: prescreenFormVersion.version,
};

function listedQuery(executor: Executor) {
  return executor
    .select(listedColumns)
    .from(prescreenResult)
    .innerJoin(candidate, eq(candidate.id, prescreenResult.candidateId))
    .innerJoin(trial, eq(trial.id, prescreenResult.trialId))
    .innerJoin(prescreenFormVersion, eq(prescreenFormVersion.id, prescreenResult.formVersionId));
}

export async function listResultRows(executor: Executor, filter: ResultFilter, page: { limit: number; offset: number }): Promise<ListedResultRow[]> {
  if (filter.organizationIds.length === 0) return [];
  return listedQuery(executor)
    .where(and(...filterConditions(filter)))
    .orderBy(desc(prescreenResult.createdAt), desc(prescreenResult.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countResultRows(executor: Executor, filter: ResultFilter): Promise<number> {
  if (filter.organizationIds.length === 0) return 0;
  const [row] = await executor
    .select({ total: sql<number>`count(*)::int` })
    .from(prescreenResult)
    .innerJoin(candidate, eq(candidate.id, prescreenResult.candidateId))
    .where(and(...filterConditions(filter)));
  return Number(row.total);
}

export async function listedResult(executor: Executor, id: string): Promise<ListedResultRow | undefined> {
  const [row] = await listedQuery(executor).where(eq(prescreenResult.id, id));
  return row;
}

export async function listedResultsOfCandidate(executor: Executor, candidateId: string): Promise<ListedResultRow[]> {
  return listedQuery(executor).where(eq(prescreenResult.candidateId, candidateId)).orderBy(desc(prescreenResult.createdAt), desc(prescreenResult.id));
}

// ---- bookings ----

export async function insertBooking(executor: Executor, values: NewBookingRow): Promise<BookingRow> {
  const [row] = await executor.insert(booking).values(values).returning();
  return row;
}

export async function setBookingConfirmation(executor: Executor, bookingId: string, confirmationSms: BookingRow['confirmationSms']) {
  await executor.update(booking).set({ confirmationSms }).where(eq(booking.id, bookingId));
}

export async function bookingsOfCandidate(executor: Executor, candidateId: string): Promise<BookingRow[]> {
  return executor.select().from(booking).where(eq(booking.candidateId, candidateId)).orderBy(desc(booking.startsAt), desc(booking.id));
}

/** Scheduled bookings made from these results. */
export async function scheduledBookingsOfResults(executor: Executor, resultIds: string[]): Promise<BookingRow[]> {
  if (resultIds.length === 0) return [];
  return executor
    .select()
    .from(booking)
    .where(and(inArray(booking.prescreenResultId, resultIds), eq(booking.status, 'scheduled')))
    .orderBy(desc(booking.createdAt));
}

export async function cancelBookings(executor: Executor, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await executor.update(booking).set({ status: 'cancelled' }).where(inArray(booking.id, ids));
}

export async function trialsByIds(executor: Executor, ids: string[]) {
  if (ids.length === 0) return [];
  return executor
    .select({ id: trial.id, title: trial.title, sites: trial.sites, organizationId: trial.organizationId })
    .from(trial)
    .where(inArray(trial.id, ids));
}

export async function findBooking(executor: Executor, id: string, forUpdate = false): Promise<BookingRow | undefined> {
  const query = executor.select().from(booking).where(eq(booking.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function setBookingStatus(executor: Executor, id: string, status: BookingRow['status']): Promise<BookingRow> {
  const [row] = await executor.update(booking).set({ status }).where(eq(booking.id, id)).returning();
  return row;
}

/**
 * For the admin dashboard (decision 032): the criteria that disqualified people most often in the results of
 * these organizations created in [from, to), optionally of one source type, with their trial's title.
 */
export async function failingCriteriaRows(
  executor: Executor,
  filter: { organizationIds: readonly string[]; from: Date | null; to: Date; sourceType?: 'call' | 'chat' | 'manual'; limit: number },
) {
  if (!filter.organizationIds.length) return [];
  const result = await executor.execute(sql`
    select r.trial_id, t.title, t.public_title, e->>'criterionId' as criterion_id, max(e->>'kind') as kind, max(e->>'text') as text, count(*)::int as failures
    from ${prescreenResult} r
    join ${trial} t on t.id = r.trial_id
    cross join lateral jsonb_array_elements(r.evaluations) e
    where r.organization_id = any(${uuidArray(filter.organizationIds)})
      and r.created_at < ${filter.to.toISOString()}
      ${filter.from ? sql`and r.created_at >= ${filter.from.toISOString()}` : sql``}
      ${filter.sourceType ? sql`and r.source_type = ${filter.sourceType}` : sql``}
      and (e->>'disqualifying')::boolean is true
    group by r.trial_id, t.title, t.public_title, e->>'criterionId'
    order by failures desc, text
    limit ${filter.limit}`);
  return (
    result as unknown as {
      rows: Array<{ trial_id: string; title: string; public_title: string | null; criterion_id: string; kind: string; text: string; failures: number }>;
    }
  ).rows;
}
