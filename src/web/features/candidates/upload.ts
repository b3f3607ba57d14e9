import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IMPORT_MAX_ROWS, IMPORT_STREAM_MAX_BYTES } from '../../../contract/candidates';
import { ACTIVE_ORGANIZATION_HEADER } from '../../../contract/headers';
import type { ProcessingRun } from '../../../contract/processing-runs';
import { errorFromResponse, getActiveOrganizationId, operationPath } from '../../lib/api';
import { invalidateOrg } from '../../lib/query';
import * as endpoints from '../../lib/api-operations.gen';

/**
 * The import's upload (decision 046): the CSV file itself as the body of POST /api/candidates/bulk/stream, the
 * options in the query string. XMLHttpRequest rather than fetch because only it reports upload progress; the
 * browser reads the file from disk as it sends it, so a large file is never held in the page.
 */

export interface StreamImportQuery {
  duplicates: 'merge' | 'skip';
  defaultCountry: string;
  trialId?: string;
  organizationId?: string;
  label?: string;
  mapping?: Record<string, string>;
  consentSource?: string;
  consentDate?: string;
}

export interface UploadProgress {
  sent: number;
  total: number;
}

/** How many bytes of the file the preview reads (the whole file when smaller): the mapping is checked on these rows. */
export const PREVIEW_BYTES = 8 * 1024 * 1024;

/**
 * The first rows of a CSV file, cut after the last complete record (a line break outside quotes) within
 * PREVIEW_BYTES; the whole text when the file is smaller. `complete` says whether it is the whole file.
 */
export async function readPreviewText(file: File): Promise<{ text: string; complete: boolean }> {
  if (file.size <= PREVIEW_BYTES) return { text: await file.text(), complete: true };
  const text = await file.slice(0, PREVIEW_BYTES).text();
  let quoted = false;
  let end = -1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 34) quoted = !quoted;
    else if (code === 10 && !quoted) end = i;
  }
  return { text: end >= 0 ? text.slice(0, end + 1) : text, complete: false };
}

export function uploadCsv(file: File, query: StreamImportQuery, onProgress: (progress: UploadProgress) => void): Promise<{ run: ProcessingRun }> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === '') continue;
    params.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  const megabytes = IMPORT_STREAM_MAX_BYTES / 1024 / 1024;
  if (file.size > IMPORT_STREAM_MAX_BYTES)
    return Promise.reject(new Error(`The file is larger than ${megabytes} MB, the most one import takes; split it into smaller files`));
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(endpoints.importCandidatesStream.method, `${operationPath(endpoints.importCandidatesStream)}?${params}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    // The file's own type may be empty or application/vnd.ms-excel: the server takes text/csv.
    xhr.setRequestHeader('Content-Type', 'text/csv; charset=utf-8');
    const active = getActiveOrganizationId();
    if (active) xhr.setRequestHeader(ACTIVE_ORGANIZATION_HEADER, active);
    xhr.upload.onprogress = (event) => onProgress({ sent: event.loaded, total: event.lengthComputable ? event.total : file.size });
    xhr.onload = () => {
      let body: unknown = xhr.responseText || undefined;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        // keep the text
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as { run: ProcessingRun });
      else reject(uploadError(xhr.status, xhr.statusText, body));
    };
    // The server may answer (a refusal) before the whole file is sent and close the connection: the browser then
    // reports a network error without the answer.
    // The server refuses a file over the row limit at its first row over and closes the connection, so the browser
    // may report a network error without the answer: the file's lines are counted to say why.
    xhr.onerror = () => {
      void countLines(file).then(
        (lines) =>
          reject(
            new Error(
              lines - 1 > IMPORT_MAX_ROWS
                ? `The file has more than ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows, the most one import takes; split it into files of at most ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows`
                : 'The upload stopped: the connection was closed before the server answered. Check your connection, then try again.',
            ),
          ),
        reject,
      );
    };
    xhr.send(file);
  });
}

/** Line breaks in the file (an upper bound of its rows: a quoted field may hold one), read in chunks. */
async function countLines(file: File): Promise<number> {
  let lines = 0;
  const reader = file.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return lines;
    for (let i = 0; i < value.length; i++) if (value[i] === 10) lines++;
  }
}

/** The server's own sentence for the import's refusals (413: too large, 415: not CSV, 400: the line at fault). */
function uploadError(status: number, statusText: string, body: unknown) {
  const message = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
  if ((status === 413 || status === 415) && typeof message === 'string') return new Error(message);
  return errorFromResponse(status, statusText, body);
}

/** The import of a CSV file through the streamed upload, with its progress (only the import page loads this module). */
export function useStartStreamedImport(onProgress: (progress: UploadProgress) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, query }: { file: File; query: StreamImportQuery }) => uploadCsv(file, query, onProgress),
    onSuccess: () => invalidateOrg(queryClient, undefined, 'processing-runs'),
    meta: { silent: true },
  });
}
