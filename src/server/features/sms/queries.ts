import { and, asc, desc, eq, gt, gte, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/scoped';
import type { SystemDb } from '../../db/system';
import { candidate, contactEvent, organization, smsMessage } from '../../db/schema';
import { consentKeyword } from './keywords';
import { insertInBatches } from '../../db/batched-insert';

export type SmsRow = typeof smsMessage.$inferSelect;
export type NewSmsRow = typeof smsMessage.$inferInsert;

export async function insertSms(executor: Executor, values: NewSmsRow): Promise<SmsRow> {
  const [row] = await executor.insert(smsMessage).values(values).returning();
  return row;
}

/** An inbound message, once per provider id: a redelivered webhook inserts nothing and answers undefined. */
export async function insertInboundOnce(executor: Executor, values: NewSmsRow): Promise<SmsRow | undefined> {
  const [row] = await executor
    .insert(smsMessage)
    .values(values)
    .onConflictDoNothing({ target: [smsMessage.provider, smsMessage.providerMessageId], where: sql`${smsMessage.providerMessageId} is not null` })
    .returning();
  return row;
}

export async function updateSms(executor: Executor, id: string, values: Partial<NewSmsRow>): Promise<SmsRow> {
  const [row] = await executor
    .update(smsMessage)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(smsMessage.id, id))
    .returning();
  return row;
}

export async function findSmsByProviderId(executor: Executor, provider: SmsRow['provider'], providerMessageId: string): Promise<SmsRow | undefined> {
  const [row] = await executor
    .select()
    .from(smsMessage)
    .where(and(eq(smsMessage.provider, provider), eq(smsMessage.providerMessageId, providerMessageId)))
    .for('update');
  return row;
}

export async function organizationName(executor: Executor, organizationId: string): Promise<string | undefined> {
  const [row] = await executor.select({ name: organization.name }).from(organization).where(eq(organization.id, organizationId));
  return row?.name;
}

/**
 * When SMS was last turned off for the candidate, if that is still the latest SMS consent change: read from
 * the 'consent' contact events (written by a STOP reply and by staff changing consent), which staff cannot
 * edit and which no import overwrites. Undefined: SMS was never turned off (never consented, or consented).
 */
export async function candidateSmsOptOutAt(executor: Executor, candidateId: string): Promise<Date | null> {
  const [row] = await executor
    .select({ occurredAt: contactEvent.occurredAt, turnedOn: sql<boolean | null>`(${contactEvent.details} -> 'sms' ->> 'to')::boolean` })
    .from(contactEvent)
    .where(and(eq(contactEvent.candidateId, candidateId), eq(contactEvent.kind, 'consent'), isNotNull(sql`${contactEvent.details} -> 'sms'`)))
    .orderBy(desc(contactEvent.occurredAt))
    .limit(1);
  return row && row.turnedOn === false ? row.occurredAt : null;
}

/**
 * Whether the number itself texted an opt-out keyword (and no opt-in since) to this organization: the newest
 * keyword among its inbound messages decides. Binding even when staff turn SMS consent back on — carriers
 * block the number until it texts START.
 */
export async function phoneSmsOptOutAt(executor: Executor, organizationId: string, phone: string): Promise<Date | null> {
  return (await phonesSmsOptOutAt(executor, organizationId, [phone])).get(phone) ?? null;
}

/** phoneSmsOptOutAt for many numbers in one query (a burst of sequence messages). */
export async function phonesSmsOptOutAt(executor: Executor, organizationId: string, phones: string[]): Promise<Map<string, Date | null>> {
  const result = new Map<string, Date | null>();
  if (!phones.length) return result;
  const rows = await executor
    .select({ phone: smsMessage.fromPhone, body: smsMessage.body, createdAt: smsMessage.createdAt })
    .from(smsMessage)
    .where(and(eq(smsMessage.organizationId, organizationId), inArray(smsMessage.fromPhone, [...new Set(phones)]), eq(smsMessage.direction, 'inbound')))
    .orderBy(desc(smsMessage.createdAt));
  for (const row of rows) {
    if (!row.phone || result.has(row.phone)) continue;
    const keyword = consentKeyword(row.body);
    if (keyword === 'opt_out') result.set(row.phone, row.createdAt);
    if (keyword === 'opt_in') result.set(row.phone, null);
  }
  return result;
}

export async function insertSmsRows(executor: Executor, values: NewSmsRow[]): Promise<SmsRow[]> {
  if (!values.length) return [];
  return insertInBatches(smsMessage, values, (batch) => executor.insert(smsMessage).values(batch).returning());
}

/** Sets the provider's answer on many outbound messages at once. */
export async function updateSentMessages(
  executor: Executor,
  updates: Array<{ id: string; status: string; providerMessageId: string | null; error: string | null }>,
): Promise<void> {
  if (!updates.length) return;
  await executor.execute(sql`
    update sms_message m set status = u.status, provider_message_id = u.provider_message_id, error = u.error, updated_at = now()
    from json_to_recordset(${JSON.stringify(updates.map((item) => ({ id: item.id, status: item.status, provider_message_id: item.providerMessageId, error: item.error })))}::json)
      as u(id uuid, status text, provider_message_id text, error text)
    where m.id = u.id`);
}

/**
 * SYSTEM PATH (ids only): the organizations that texted `phone` from `sender`, a number no organization owns
 * (the installation's shared sender, or a released number). The person's handset shows them as one thread.
 */
export async function systemOrganizationsThatTexted(system: SystemDb, phone: string, sender: string): Promise<string[]> {
  const rows = await system
    .selectDistinct({ organizationId: smsMessage.organizationId })
    .from(smsMessage)
    .where(and(eq(smsMessage.toPhone, phone), eq(smsMessage.fromPhone, sender), eq(smsMessage.direction, 'outbound')));
  return rows.map((row) => row.organizationId).sort();
}

/** The newest outbound message to `phone` the executor may see, in these organizations: who texted it last, and from which number. */
export async function latestOutboundTo(
  executor: Executor,
  phone: string,
  organizationIds: readonly string[],
): Promise<{ organizationId: string; fromPhone: string } | undefined> {
  if (organizationIds.length === 0) return undefined;
  const [row] = await executor
    .select({ organizationId: smsMessage.organizationId, fromPhone: smsMessage.fromPhone })
    .from(smsMessage)
    .where(and(eq(smsMessage.toPhone, phone), eq(smsMessage.direction, 'outbound'), inArray(smsMessage.organizationId, [...organizationIds])))
    .orderBy(desc(smsMessage.createdAt))
    .limit(1);
  return row;
}

/** Inbound messages stored in an organization with no candidate, newest first (the internal organization's: texts to numbers no organization owns). */
export async function inboundWithoutCandidate(executor: Executor, organizationId: string, limit: number): Promise<SmsRow[]> {
  return executor
    .select()
    .from(smsMessage)
    .where(and(eq(smsMessage.organizationId, organizationId), eq(smsMessage.direction, 'inbound'), isNull(smsMessage.candidateId)))
    .orderBy(desc(smsMessage.createdAt), desc(smsMessage.id))
    .limit(limit);
}

export async function threadMessages(executor: Executor, candidateId: string): Promise<SmsRow[]> {
  return executor.select().from(smsMessage).where(eq(smsMessage.candidateId, candidateId)).orderBy(asc(smsMessage.createdAt), asc(smsMessage.id));
}

export async function outboundMessages(executor: Executor, filter: { organizationIds: string[]; candidateId?: string; limit: number }): Promise<SmsRow[]> {
  if (filter.organizationIds.length === 0) return [];
  const conditions = [inArray(smsMessage.organizationId, filter.organizationIds), eq(smsMessage.direction, 'outbound')];
  if (filter.candidateId) conditions.push(eq(smsMessage.candidateId, filter.candidateId));
  return executor
    .select()
    .from(smsMessage)
    .where(and(...conditions))
    .orderBy(desc(smsMessage.createdAt), desc(smsMessage.id))
    .limit(filter.limit);
}

export interface ThreadSummaryRow {
  candidateId: string;
  organizationId: string;
  firstName: string;
  lastName: string;
  messageCount: number;
  inboundCount: number;
  lastAt: Date;
}

/** One row per candidate with messages, newest conversation first. */
export async function threadSummaries(
  executor: Executor,
  filter: { organizationIds: string[]; candidateId?: string; limit: number },
): Promise<ThreadSummaryRow[]> {
  if (filter.organizationIds.length === 0) return [];
  const conditions = [inArray(smsMessage.organizationId, filter.organizationIds), isNotNull(smsMessage.candidateId)];
  if (filter.candidateId) conditions.push(eq(smsMessage.candidateId, filter.candidateId));
  const rows = await executor
    .select({
      candidateId: sql<string>`${smsMessage.candidateId}`,
      organizationId: smsMessage.organizationId,
      firstName: candidate.firstName,
      lastName: candidate.lastName,
      messageCount: sql<number>`count(*)::int`,
      inboundCount: sql<number>`(count(*) filter (where ${smsMessage.direction} = 'inbound'))::int`,
      lastAt: sql<Date>`max(${smsMessage.createdAt})`.mapWith(smsMessage.createdAt),
    })
    .from(smsMessage)
    .innerJoin(candidate, eq(candidate.id, smsMessage.candidateId))
    .where(and(...conditions))
    .groupBy(smsMessage.candidateId, smsMessage.organizationId, candidate.firstName, candidate.lastName)
    .orderBy(desc(sql`max(${smsMessage.createdAt})`))
    .limit(filter.limit);
  return rows.map((row) => ({ ...row, messageCount: Number(row.messageCount), inboundCount: Number(row.inboundCount) }));
}

/** The newest message of each candidate. */
export async function lastMessages(executor: Executor, candidateIds: string[]): Promise<Map<string, SmsRow>> {
  if (candidateIds.length === 0) return new Map();
  const rows = await executor
    .selectDistinctOn([smsMessage.candidateId])
    .from(smsMessage)
    .where(inArray(smsMessage.candidateId, candidateIds))
    .orderBy(smsMessage.candidateId, desc(smsMessage.createdAt), desc(smsMessage.id));
  return new Map(rows.map((row) => [row.candidateId!, row]));
}

/** Inbound messages newer than the candidate's last outbound one (replies awaiting an answer). */
export async function unansweredCounts(executor: Executor, candidateIds: string[]): Promise<Map<string, number>> {
  if (candidateIds.length === 0) return new Map();
  const rows = await executor
    .select({ candidateId: sql<string>`${smsMessage.candidateId}`, count: sql<number>`count(*)::int` })
    .from(smsMessage)
    .where(
      and(
        inArray(smsMessage.candidateId, candidateIds),
        eq(smsMessage.direction, 'inbound'),
        gt(
          smsMessage.createdAt,
          sql`coalesce((select max(o.created_at) from sms_message o where o.candidate_id = ${smsMessage.candidateId} and o.direction = 'outbound'), '-infinity'::timestamptz)`,
        ),
      ),
    )
    .groupBy(smsMessage.candidateId);
  return new Map(rows.map((row) => [row.candidateId, Number(row.count)]));
}

/** The newest message of a template sent to a candidate since `since` (a question waiting for its answer). */
export async function latestTemplateSentTo(executor: Executor, candidateId: string, templateKey: string, since: Date): Promise<SmsRow | undefined> {
  const [row] = await executor
    .select()
    .from(smsMessage)
    .where(
      and(
        eq(smsMessage.candidateId, candidateId),
        eq(smsMessage.direction, 'outbound'),
        eq(smsMessage.templateKey, templateKey),
        gte(smsMessage.createdAt, since),
        inArray(smsMessage.status, ['queued', 'sent', 'delivered']),
      ),
    )
    .orderBy(desc(smsMessage.createdAt))
    .limit(1);
  return row;
}
