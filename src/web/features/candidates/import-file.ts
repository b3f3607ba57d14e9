import { readPreviewText } from './upload';

/**
 * The chosen file. A CSV file is previewed from its first rows (all of them up to PREVIEW_BYTES) and imported by
 * uploading the file itself (the streamed import, decision 046); a JSON file is read whole and posted as JSON.
 */
export type ParsedFile =
  | { name: string; format: 'csv'; data: string; file: File; complete: boolean }
  | { name: string; format: 'json'; data: Array<Record<string, string | number | boolean | null>> };

/** Reads the chosen file: `.json` (an array of objects) or anything else as CSV. */
export async function readFile(file: File): Promise<ParsedFile> {
  const head = await file.slice(0, 64).text();
  const isJson = /\.json$/i.test(file.name) || file.type === 'application/json' || /^\s*\[/.test(head);
  if (!isJson) {
    const { text, complete } = await readPreviewText(file);
    return { name: file.name, format: 'csv', data: text, file, complete };
  }
  const text = await file.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('This file is not valid JSON. Choose a CSV file, or a JSON file holding an array of objects.');
  }
  const rows = Array.isArray(parsed) ? parsed : parsed && typeof parsed === 'object' ? Object.values(parsed).find(Array.isArray) : undefined;
  if (!rows) throw new Error('The JSON file must hold an array of objects, one per candidate.');
  return { name: file.name, format: 'json', data: rows as Array<Record<string, string | number | boolean | null>> };
}
