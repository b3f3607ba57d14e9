import { MessageCircle } from 'lucide-react';
import type { PublicOrganization } from '../../../contract/organizations';
import { Logo } from '../../components/Logo';
import { Card, CardContent, CardHeader } from '../../components/ui';

/** The public chat page of an organization. The chat itself is built later: this shows where it will be. */
export function PublicChatPage({ organization, organizationId, search }: { organization: PublicOrganization | null; organizationId: string; search: { 'conversation-id'?: string; token?: string } }) {
  const name = organization?.name ?? 'this research site';
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <header className="border-b border-slate-200 bg-white px-4 py-3">
        <Logo size="s" />
      </header>
      <main className="mx-auto w-full max-w-2xl flex-1 px-4 py-10">
        <Card>
          <CardHeader>
            <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Chat with {name}</h1>
            <p className="text-sm text-slate-700">Find out whether a clinical trial at {name} could be right for you.</p>
          </CardHeader>
          <CardContent className="grid gap-4">
            <div className="flex items-start gap-3 rounded-md border border-dashed border-slate-300 p-4">
              <MessageCircle aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-blue-700" />
              <div>
                <h2 className="font-semibold text-slate-900">Coming soon</h2>
                <p className="text-sm text-slate-700">
                  The prescreening chat will open here: a short conversation about you and the trial, which the site's staff then review.
                </p>
              </div>
            </div>
            <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm" data-testid="search-params">
              <dt className="text-slate-700">Organization</dt>
              <dd className="font-mono text-slate-900">{organization?.publicId ?? organizationId}</dd>
              {search['conversation-id'] && (
                <>
                  <dt className="text-slate-700">Conversation</dt>
                  <dd className="font-mono text-slate-900">{search['conversation-id']}</dd>
                </>
              )}
            </dl>
          </CardContent>
        </Card>
      </main>
    </div>
  );
}
