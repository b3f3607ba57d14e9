import { useState } from 'react';

/** Where an offset-paged list is: the query's `offset` and limit (`pageSize`); spread it into OffsetPager. */
export interface OffsetPaging {
  offset: number;
  pageSize: number;
  onOffset: (offset: number) => void;
}

/**
 * Offset paging of a list. With `filterKey` (the list's filters, serialized) the page keeps the offset and
 * starts again at the first page whenever the filters change; with `page` and `onPage` the page number
 * (1 = the first) lives in the URL instead.
 */
export function useOffsetPaging(pageSize: number, from: { filterKey: string } | { page: number; onPage: (page: number) => void }): OffsetPaging {
  const [held, setHeld] = useState({ key: 'filterKey' in from ? from.filterKey : '', offset: 0 });
  if ('page' in from) return { offset: (from.page - 1) * pageSize, pageSize, onOffset: (offset) => from.onPage(offset / pageSize + 1) };
  return { offset: held.key === from.filterKey ? held.offset : 0, pageSize, onOffset: (offset) => setHeld({ key: from.filterKey, offset }) };
}
