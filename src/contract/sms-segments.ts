/** SMS segment counting, shared by the composer (how long a message is) and the costs of sent messages. Plain module. */

// GSM 03.38: the basic set (one unit each) and the extension table (two units each, an escape first).
const GSM_BASIC = new Set('@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà');
const GSM_EXTENDED = new Set('^{}\\[~]|€\f');

/**
 * How many SMS segments a text needs: GSM-7 fits 160 characters (153 a segment when split), anything else is
 * sent as UCS-2: 70 (67 a segment when split). Counts UTF-16 units for UCS-2, as carriers do.
 */
export function smsSegments(text: string): { encoding: 'GSM-7' | 'Unicode'; units: number; segments: number; perSegment: number } {
  if (!text) return { encoding: 'GSM-7', units: 0, segments: 0, perSegment: 160 };
  let gsmUnits = 0;
  let gsm = true;
  for (const char of text) {
    if (GSM_BASIC.has(char)) gsmUnits += 1;
    else if (GSM_EXTENDED.has(char)) gsmUnits += 2;
    else {
      gsm = false;
      break;
    }
  }
  if (gsm) {
    const perSegment = gsmUnits <= 160 ? 160 : 153;
    return { encoding: 'GSM-7', units: gsmUnits, segments: Math.ceil(gsmUnits / perSegment), perSegment };
  }
  const units = text.length;
  const perSegment = units <= 70 ? 70 : 67;
  return { encoding: 'Unicode', units, segments: Math.ceil(units / perSegment), perSegment };
}
