// What the authenticate and validate stages read when they refuse: a client that sends an invalid
// request on purpose can pick which documented error it sees.
import type { PlainRequest } from '../../common/plain-http.js';
import { readSelection } from '../read-selection.js';
import { isRefusal } from '../refusal.js';

/**
 * The example a refused request names for the refusal's status (`Prefer: code=422,
 * example=usernameIsEmpty`, or Prism's `?__code=422&__example=…`). A name for another status is ignored.
 */
export function exampleAskedFor(request: PlainRequest, query: URLSearchParams, status: number): string | null {
  const selection = readSelection(request, query);
  if (isRefusal(selection) || selection.example === null) return null;
  return selection.code === null || selection.code === status ? selection.example : null;
}
