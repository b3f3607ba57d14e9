import { Hono } from 'hono';
import type { AppEnv } from '../../http/context';

/** POST /api/inbound/: Twilio's voice webhook for a call to one of our numbers, answered with TwiML. (Being written.) */
export const twilioVoiceRoutes = new Hono<AppEnv>().post('/', (c) =>
  c.body('<?xml version="1.0" encoding="UTF-8"?><Response><Say>We are sorry, this line is not available yet. Goodbye.</Say><Hangup/></Response>', 500, { 'content-type': 'text/xml; charset=utf-8' }),
);
