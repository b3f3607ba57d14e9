import { ActionsTh } from '../../components/ListState';
import { ViewSwitch } from '../../components/TabList';
import { FilterBar } from '../../components/filters';
import { OrganizationFilter } from '../trials/OrganizationFilter';
import { useMemo, useState } from 'react';
import { VOICE_AGENT_TYPES, type VoiceAgent, type VoiceAgentType } from '../../../contract/voice';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Badge, EmptyState, PageHeader, Table, Td, Th } from '../../components/ui';
import { useActiveOrganization } from '../../lib/active-organization';
import { DeleteAgentDialog } from '../chat/agent-list';
import { AgentTableRow } from '../chat/ChatAgentsTable';
import { languagesText } from '../chat/format';
import { useTrialsQuery } from '../trials/queries';
import { useIsGlobal } from '../trials/hooks';
import { AGENT_TYPE_LABELS } from './format';
import { useDeleteVoiceAgent, useVoiceAgentsQuery } from './queries';
import { VoiceAgentDialog } from './dialogs';

interface VoiceAgentsPageProps {
  type: VoiceAgentType;
  onTypeChange: (next: VoiceAgentType) => void;
  /** A global admin's organization filter (none: the server's default selection), as on the other lists. */
  orgs?: string[];
  onOrgsChange: (next: string[] | undefined) => void;
}

/**
 * /admin/voice-agents: the agents that phone candidates, one tab per type (the URL's `agent-type`). A global admin
 * narrows the list by organization (`orgs`); a new agent then belongs to the one organization chosen.
 */
export function VoiceAgentsPage({ type, onTypeChange, orgs, onOrgsChange }: VoiceAgentsPageProps) {
  const isGlobal = useIsGlobal();
  const chosenOrgs = isGlobal ? orgs : undefined;
  const query = useVoiceAgentsQuery(type, chosenOrgs);
  const { organizations } = useActiveOrganization();
  const names = useMemo(() => new Map(organizations.map((org) => [org.id, org.name])), [organizations]);
  const trialsQuery = useTrialsQuery(chosenOrgs);
  const trialTitles = useMemo(() => new Map((trialsQuery.data?.trials ?? []).map((trial) => [trial.id, trial.publicTitle || trial.title])), [trialsQuery.data]);
  const trialStatuses = useMemo(() => new Map((trialsQuery.data?.trials ?? []).map((trial) => [trial.id, trial.status])), [trialsQuery.data]);
  const [editing, setEditing] = useState<VoiceAgent | null>(null);
  const [deleting, setDeleting] = useState<VoiceAgent | null>(null);
  const remove = useDeleteVoiceAgent();
  const agents = (query.data?.voiceAgents ?? []).filter((agent) => agent.type === type);

  let body;
  if (query.isPending) body = <Spinner label="Loading voice agents" />;
  else if (query.isError) body = <ErrorCard title="Could not load voice agents" error={query.error} onRetry={() => void query.refetch()} />;
  else if (agents.length === 0) {
    body = (
      <EmptyState title={`No ${AGENT_TYPE_LABELS[type].toLowerCase()} agents yet`}>
        <p>
          {type === 'PRESCREEN'
            ? 'Create an agent for a trial with a published prescreen form; “Call now” on a candidate then phones them with it.'
            : 'Create an agent that phones candidates to book their site visit.'}
        </p>
        <div className="mt-4 flex justify-center">
          <VoiceAgentDialog type={type} orgs={chosenOrgs} />
        </div>
      </EmptyState>
    );
  } else {
    body = (
      <Table caption={`${AGENT_TYPE_LABELS[type]} voice agents`}>
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>Trial</Th>
            <Th>Languages</Th>
            <Th>Calling hours</Th>
            <Th>From number</Th>
            <Th>Active</Th>
            {isGlobal && <Th>Organization</Th>}
            <ActionsTh />
          </tr>
        </thead>
        <tbody>
          {agents.map((agent) => (
            <AgentTableRow
              key={agent.id}
              agent={agent}
              trial={{
                title: agent.trialId ? trialTitles.get(agent.trialId) : null,
                // Only a prescreen agent stops calling when its trial stops recruiting.
                status: agent.type === 'PRESCREEN' && agent.trialId ? trialStatuses.get(agent.trialId) : null,
                effect: 'no calls go out',
              }}
              trialNote={
                agent.type === 'PRESCREEN' &&
                !agent.prescreenFormId && (
                  <Badge tone="amber" className="ml-2">
                    No form
                  </Badge>
                )
              }
              organizationName={isGlobal ? (names.get(agent.organizationId) ?? '—') : null}
              onEdit={() => setEditing(agent)}
              onDelete={() => setDeleting(agent)}
            >
              <Td>{languagesText(agent.languages)}</Td>
              <Td className="whitespace-nowrap tabular-nums">
                {agent.callingHoursStart}–{agent.callingHoursEnd}
              </Td>
              <Td className="whitespace-nowrap font-mono">{agent.fromNumber ?? '—'}</Td>
            </AgentTableRow>
          ))}
        </tbody>
      </Table>
    );
  }

  return (
    <div>
      <PageHeader
        title="Voice agents"
        description="Agents phone candidates: prescreen agents ask a trial’s published prescreen form, scheduling agents book the site visit."
        actions={agents.length > 0 ? <VoiceAgentDialog type={type} orgs={chosenOrgs} /> : undefined}
      />
      <ViewSwitch label="Agent types" views={VOICE_AGENT_TYPES} labels={AGENT_TYPE_LABELS} current={type} onSelect={onTypeChange} />
      {isGlobal && (
        <FilterBar label="Filter voice agents">
          <OrganizationFilter organizations={organizations} selected={orgs} onChange={onOrgsChange} />
        </FilterBar>
      )}
      {body}
      {editing && <VoiceAgentDialog key={editing.id} agent={editing} open onOpenChange={(open) => !open && setEditing(null)} />}
      <DeleteAgentDialog
        agent={deleting}
        onClose={() => setDeleting(null)}
        remove={remove}
        description="The agent places no more calls. Its calls stay, without an agent."
      />
    </div>
  );
}
