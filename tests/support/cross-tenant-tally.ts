import { appendFileSync } from 'node:fs';

/**
 * Counts the cross-tenant requests the isolation suites really send (`npm run probe:tenancy`, issue 35's closing
 * note). Off unless CROSS_TENANT_TALLY names a file: then each test app appends its count there when it closes.
 *
 * A request is cross-tenant when its path or body carries an id that an earlier answer gave to another
 * organization's people (ids are credited to the organization of the first person, not an internal admin with
 * every organization in view, whose answer carried them), or when a test marks it so (provider webhooks).
 */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

export class CrossTenantTally {
  private readonly owners = new Map<string, string>();
  private readonly operations = new Map<string, number>();
  readonly enabled = Boolean(process.env.CROSS_TENANT_TALLY);

  /** Credits the ids in an answer to the organization whose person received it (the first one to see each). */
  credit(organizationId: string | undefined, answerText: string) {
    if (!this.enabled || !organizationId) return;
    for (const id of answerText.match(UUID) ?? []) if (!this.owners.has(id.toLowerCase())) this.owners.set(id.toLowerCase(), organizationId);
  }

  /** Counts the request when it names another organization's id. */
  inspect(organizationId: string | undefined, method: string, path: string, body: string | undefined) {
    if (!this.enabled || !organizationId) return;
    const ids = `${path} ${body ?? ''}`.match(UUID) ?? [];
    if (ids.some((id) => this.owners.has(id.toLowerCase()) && this.owners.get(id.toLowerCase()) !== organizationId))
      this.mark(`${method} ${path.split('?')[0].replace(UUID, '{id}')}`);
  }

  mark(operation: string) {
    if (this.enabled) this.operations.set(operation, (this.operations.get(operation) ?? 0) + 1);
  }

  flush() {
    const file = process.env.CROSS_TENANT_TALLY;
    if (!file || this.operations.size === 0) return;
    appendFileSync(file, `${JSON.stringify(Object.fromEntries(this.operations))}\n`);
    this.operations.clear();
  }
}
