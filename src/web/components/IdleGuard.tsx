import { useEffect, useState, useSyncExternalStore } from 'react';
import { api, getSessionDeadline, setSessionDeadline, setSessionEndedHandler, subscribeSessionDeadline } from '../lib/api';
import { useAuth } from '../lib/auth';
import { Dialog } from './dialogs';
import { Button } from './ui';
import * as endpoints from '../lib/api-operations.gen';

/** The warning opens this long before the idle sign-out (spec: a minute). */
const WARN_BEFORE_MS = 60_000;

/**
 * Automatic logoff (decision 061): a minute before the server would end an idle session, a dialog offers to
 * stay signed in (a call to the server, which counts as activity); at the deadline the app signs out, and the
 * sign-in page brings the user back to the page they were on. A 401 from any call (the session ended on the
 * server: idle, lifetime, revoked elsewhere) signs out the same way.
 */
export function IdleGuard() {
  const auth = useAuth();
  const deadline = useSyncExternalStore(subscribeSessionDeadline, getSessionDeadline);
  const [now, setNow] = useState(() => Date.now());
  const [staying, setStaying] = useState(false);

  // The deadline the session arrived with, until an API answer brings a newer one.
  const sessionExpiresAt = auth.session?.session.expiresAt;
  useEffect(() => {
    if (sessionExpiresAt && getSessionDeadline() === null) setSessionDeadline(new Date(sessionExpiresAt).getTime());
  }, [sessionExpiresAt]);

  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);

  const { signOut } = auth;
  useEffect(() => {
    setSessionEndedHandler(() => {
      setSessionDeadline(null);
      void signOut();
    });
    return () => setSessionEndedHandler(null);
  }, [signOut]);

  const remaining = deadline === null ? Infinity : deadline - now;
  useEffect(() => {
    if (remaining <= 0) {
      setSessionDeadline(null);
      // The route guard then sends the user to sign-in with this page as the redirect.
      void signOut();
    }
  }, [remaining, signOut]);

  const open = remaining > 0 && remaining <= WARN_BEFORE_MS;
  const seconds = Math.max(0, Math.ceil(remaining / 1000));

  const stay = async () => {
    setStaying(true);
    try {
      await api.call(endpoints.getCurrentUser);
    } finally {
      setStaying(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && void stay()}
      title="Are you still there?"
      description={`For the safety of patient data you will be signed out in ${seconds} seconds.`}
    >
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => void signOut()}>
          Sign out now
        </Button>
        <Button onClick={() => void stay()} disabled={staying}>
          Stay signed in
        </Button>
      </div>
    </Dialog>
  );
}
