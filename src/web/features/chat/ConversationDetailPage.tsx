import { Link, useNavigate } from '@tanstack/react-router';
import { ArrowLeft, ClipboardCheck, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { ChatMessage, ConversationDetail } from '../../../contract/chat';
import { ConfirmDialog } from '../../components/dialogs';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Transcript, type TranscriptTurn } from '../../components/Transcript';
import { Badge, Button, buttonClass, Card, CardContent, CardHeader, CardTitle } from '../../components/ui';
import { ApiRequestError } from '../../lib/api';
import { formatDateTime } from '../../lib/utils';
import { RecommendationBadge } from '../prescreen/components';
import { answerInWords } from '../prescreen/format';
import { usePrescreenReviewQuery } from '../prescreen/queries';
import { StatusBadge } from './ConversationsTable';
import { LANGUAGE_LABELS } from './format';
import { useConversationQuery, useDeleteConversation } from './queries';
import { countWords } from '../../lib/counts';
import { datesInTextInWords } from '../../lib/date-words';

function ChatTranscript({ messages }: { messages: ChatMessage[] }) {
  if (messages.length === 0) return <p className="text-sm text-slate-700">No messages.</p>;
  const turns = messages.map(
    (message): TranscriptTurn => ({
      key: message.id,
      side: message.role === 'visitor' ? 'end' : 'start',
      speaker: message.role === 'visitor' ? 'Visitor' : message.role === 'agent' ? 'Agent' : 'System',
      at: message.createdAt,
      text: message.text,
      tone: message.kind === 'safety' ? 'safety' : undefined,
    }),
  );
  return <Transcript aria-label="Transcript" data-testid="transcript" turns={turns} />;
}

/** The prescreen result the chat recorded: its recommendation, reasons and answers, and a link to review it. */
function ResultPanel({ conversation }: { conversation: ConversationDetail }) {
  const candidateId = conversation.candidate?.id;
  const review = usePrescreenReviewQuery(candidateId ?? '');
  const result = review.data?.results.find((item) => item.id === conversation.prescreenResultId);
  const recommendation = result?.aiRecommendation ?? conversation.prescreenResult?.aiRecommendation;

  return (
    <Card data-testid="prescreen-result">
      <CardHeader>
        <CardTitle>Prescreen result</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {!conversation.prescreenResultId || !recommendation ? (
          <p className="text-slate-700">
            {conversation.status === 'ONGOING'
              ? 'The chat is still going: a result is recorded when it ends.'
              : 'No result was recorded for this chat (the visitor left before answering, or gave no name or answer).'}
          </p>
        ) : (
          <>
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium text-slate-800">AI recommendation</span>
              <RecommendationBadge recommendation={recommendation} />
            </div>
            {result && result.aiReasons.length > 0 && (
              <ul className="list-disc space-y-1 pl-5 text-slate-800">
                {result.aiReasons.map((reason) => (
                  <li key={reason}>{datesInTextInWords(reason)}</li>
                ))}
              </ul>
            )}
            {review.isPending && candidateId && <Spinner className="p-2" label="Loading the answers" />}
            {result && result.answers.length > 0 && (
              <details className="rounded-md border border-slate-200 p-3">
                <summary className="cursor-pointer font-medium text-slate-900">Answers ({result.answers.length})</summary>
                <dl className="mt-2 grid gap-2">
                  {result.answers.map((answer) => (
                    <div key={answer.questionId}>
                      <dt className="text-slate-700">{answer.question}</dt>
                      <dd className="font-medium text-slate-900">{answerInWords(answer)}</dd>
                    </div>
                  ))}
                </dl>
              </details>
            )}
          </>
        )}
        {candidateId && (
          <div className="flex flex-wrap gap-2">
            {conversation.prescreenResultId && (
              <Link to="/prescreen/results" search={{ candidateId }} className={buttonClass('primary', 'sm')}>
                <ClipboardCheck aria-hidden="true" className="h-4 w-4" />
                Review prescreen result
              </Link>
            )}
            <Link to="/candidates/$id" params={{ id: candidateId }} className={buttonClass('secondary', 'sm')}>
              Open candidate
            </Link>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/** One conversation (the `conversationId` search param of /admin/chat-conversations): transcript and result. */
export function ConversationDetailPage({ conversationId, backSearch }: { conversationId: string; backSearch: Record<string, unknown> }) {
  const query = useConversationQuery(conversationId);
  const remove = useDeleteConversation();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const back = (
    <Link
      to="/admin/chat-conversations"
      search={backSearch}
      className="inline-flex items-center gap-1 text-sm font-medium text-blue-800 underline-offset-4 hover:underline"
    >
      <ArrowLeft aria-hidden="true" className="h-4 w-4" />
      Back to conversations
    </Link>
  );

  if (query.isPending) return <Spinner label="Loading the conversation" />;
  if (query.isError) {
    const missing = query.error instanceof ApiRequestError && query.error.status === 404;
    return (
      <div className="grid gap-4">
        {back}
        <ErrorCard
          title={missing ? 'Conversation not found' : 'Could not load the conversation'}
          message={missing ? 'It may have been deleted.' : undefined}
          error={query.error}
          onRetry={missing ? undefined : () => void query.refetch()}
        />
      </div>
    );
  }
  const conversation = query.data;
  const name = conversation.candidate?.name || 'Anonymous visitor';

  return (
    <div className="grid gap-4">
      {back}
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Conversation with {name}</h1>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-700">
            <StatusBadge status={conversation.status} />
            {conversation.isTest && <Badge tone="amber">Test</Badge>}
            <span>{conversation.agent?.name ?? 'Deleted agent'}</span>
          </p>
        </div>
        <Button variant="secondary" className="text-red-800" onClick={() => setConfirming(true)}>
          <Trash2 aria-hidden="true" className="h-4 w-4" />
          Delete conversation
        </Button>
      </div>
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Card>
          <CardHeader>
            <CardTitle>Transcript</CardTitle>
          </CardHeader>
          <CardContent>
            <ChatTranscript messages={conversation.messages} />
          </CardContent>
        </Card>
        <div className="grid gap-4 lg:sticky lg:top-4">
          <ResultPanel conversation={conversation} />
          <Card>
            <CardHeader>
              <CardTitle>Details</CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1.5 text-sm">
                <dt className="text-slate-700">Language</dt>
                <dd className="text-slate-900">{LANGUAGE_LABELS[conversation.language] ?? conversation.language}</dd>
                <dt className="text-slate-700">Messages</dt>
                <dd className="text-slate-900">{countWords(conversation.messageCount)}</dd>
                <dt className="text-slate-700">Phone</dt>
                <dd className="text-slate-900">{conversation.phoneVerified ? 'Verified' : 'Not verified'}</dd>
                <dt className="text-slate-700">Started</dt>
                <dd className="text-slate-900">{formatDateTime(conversation.createdAt)}</dd>
                <dt className="text-slate-700">Last activity</dt>
                <dd className="text-slate-900">{formatDateTime(conversation.updatedAt)}</dd>
                <dt className="text-slate-700">Completed</dt>
                <dd className="text-slate-900">{formatDateTime(conversation.completedAt)}</dd>
                {conversation.trialId && (
                  <>
                    <dt className="text-slate-700">Trial</dt>
                    <dd>
                      <Link to="/trials/$trialId" params={{ trialId: conversation.trialId }} className="text-blue-800 underline-offset-4 hover:underline">
                        Open trial
                      </Link>
                    </dd>
                  </>
                )}
              </dl>
            </CardContent>
          </Card>
        </div>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete this conversation?"
        description="Its transcript is deleted for good. The prescreen result it recorded stays on the candidate."
        confirmLabel="Delete conversation"
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(conversation.id, {
            onSuccess: () => {
              toast.success('Conversation deleted');
              setConfirming(false);
              void navigate({ to: '/admin/chat-conversations', search: backSearch });
            },
          })
        }
      />
    </div>
  );
}
