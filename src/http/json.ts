// Small helpers shared by the operation handlers.
import { ApiError } from '../shared/errors';
import { words } from '../shared/text';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** The searched words of q: folded, at most the first 10. */
export function searchWords(q: string): string[] {
  const w = words(q);
  if (w.length === 0) throw new ApiError('bad_request', 'q contains no searchable characters');
  return w.length > 10 ? w.slice(0, 10) : w;
}
