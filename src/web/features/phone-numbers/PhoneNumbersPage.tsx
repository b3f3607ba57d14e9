import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { PhoneNumber } from '../../../contract/phone-numbers';
import { ConfirmDialog } from '../../components/dialogs';
import { lazyDialog, type LazyDialogProps } from '../../components/lazy-dialog';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Badge, Button, Card, CardContent, EmptyState, PageHeader, Table, Td, Th } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { apiProblem } from '../../lib/form-errors';
import { useIsGlobal } from '../trials/hooks';
import { PROVIDER_LABELS, PURPOSE_LABELS } from './format';
import { usePhoneNumbersQuery, useReleasePhoneNumber } from './queries';

const AssignDialog = lazyDialog(
  () => import('./PhoneNumberDialogs').then((module) => module.AssignDialog),
  () => 'Assign a phone number',
);
const EditDialog = lazyDialog<LazyDialogProps & { number: PhoneNumber }>(
  () => import('./PhoneNumberDialogs').then((module) => module.EditDialog),
  ({ number }) => `Edit ${number.number}`,
);

/**
 * /admin/phone-numbers: the phone-number registry. Internal admins with Cohortly active assign numbers to
 * organizations, change, move and release them; with another organization active the page is read-only.
 */
export function PhoneNumbersPage() {
  const isGlobal = useIsGlobal();
  const query = usePhoneNumbersQuery();
  const release = useReleasePhoneNumber();
  const [releasing, setReleasing] = useState<PhoneNumber | null>(null);
  const [releaseError, setReleaseError] = useState<string | null>(null);
  const numbers = query.data?.phoneNumbers ?? [];

  let body;
  if (query.isPending) body = <Spinner label="Loading phone numbers" />;
  else if (query.isError) body = <ErrorCard title="Could not load phone numbers" error={query.error} onRetry={() => void query.refetch()} />;
  else if (numbers.length === 0)
    body = (
      <EmptyState title="No phone numbers yet">
        {isGlobal
          ? 'Assign a number to an organization: its voice agents can then call from it, and calls to it reach them.'
          : 'Cohortly assigns numbers: switch to the Cohortly organization to manage them.'}
      </EmptyState>
    );
  else
    body = (
      <Card>
        <CardContent className="p-0">
          <Table caption="Phone numbers">
            <thead>
              <tr>
                <Th>Number</Th>
                <Th>Organization</Th>
                <Th>Purpose</Th>
                <Th>Provider</Th>
                <Th>Label</Th>
                <Th>Voice agents</Th>
                {isGlobal && <Th className="text-right">Actions</Th>}
              </tr>
            </thead>
            <tbody>
              {numbers.map((item) => (
                <tr key={item.id} className="border-t border-slate-100">
                  <Td className="whitespace-nowrap font-mono">{item.number}</Td>
                  <Td>{item.organizationName}</Td>
                  <Td>{PURPOSE_LABELS[item.purpose]}</Td>
                  <Td>
                    {PROVIDER_LABELS[item.provider]}
                    {item.providerId && <span className="block text-xs text-slate-700">{item.providerId}</span>}
                  </Td>
                  <Td>{item.label ?? '—'}</Td>
                  <Td>
                    {item.agents.length === 0
                      ? '—'
                      : item.agents.map((agent) => (
                          <span key={agent.id} className="mr-1 inline-flex items-center gap-1">
                            {agent.name}
                            {!agent.active && <Badge>inactive</Badge>}
                          </span>
                        ))}
                  </Td>
                  {isGlobal && (
                    <Td className="whitespace-nowrap text-right">
                      <EditDialog
                        number={item}
                        trigger={
                          <Button variant="ghost" size="sm" aria-label={`Edit ${item.number}`}>
                            <Pencil aria-hidden="true" className="h-4 w-4" />
                            Edit
                          </Button>
                        }
                      />
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => {
                          setReleaseError(null);
                          setReleasing(item);
                        }}
                        aria-label={`Release ${item.number}`}
                      >
                        <Trash2 aria-hidden="true" className="h-4 w-4" />
                        Release
                      </Button>
                    </Td>
                  )}
                </tr>
              ))}
            </tbody>
          </Table>
        </CardContent>
      </Card>
    );

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Phone numbers"
        description="Each number belongs to one organization: its voice agents call from it, and inbound calls to it reach them."
        actions={
          isGlobal ? (
            <AssignDialog
              trigger={
                <Button>
                  <Plus aria-hidden="true" className="h-4 w-4" />
                  Assign number
                </Button>
              }
            />
          ) : undefined
        }
      />
      {body}
      <ConfirmDialog
        open={releasing !== null}
        onOpenChange={(open) => !open && setReleasing(null)}
        title={`Release ${releasing?.number ?? ''}?`}
        description="The organization loses the number: calls to it are no longer answered. Refused while an active voice agent calls from it."
        confirmLabel="Release"
        pending={release.isPending}
        onConfirm={async () => {
          if (!releasing) return;
          try {
            await release.mutateAsync(releasing.id);
            toast.success(`Released ${releasing.number}`);
            setReleasing(null);
          } catch (error) {
            setReleaseError(apiProblem(error).message);
          }
        }}
      >
        <FormError>{releaseError}</FormError>
      </ConfirmDialog>
    </div>
  );
}
