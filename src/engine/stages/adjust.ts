// Stage 8, adjust: a built answer made to agree with this request and this stub. A stateless answer
// answers the path's ids, an RPC-style one reflects the request's fields, a list's ids are
// distinct (agree-with-request.ts); links in its headers and body stay on the stub
// (links-on-stub.ts); a cursor-paged list's next-page fields are built for this page
// (cursor-pages.ts); a stateful create's `Location` names the created item. Each proposes
// patches on one draft of the answer (body-draft.ts), checked against the schema once.
import type { Selection } from '../engine-types.js';
import { agreeWithRequest } from '../agree-with-request.js';
import { cursorPages, pageOfRequest } from '../cursor-pages.js';
import { keepLinksOnStub, locateCreated, stubOrigin } from '../links-on-stub.js';
import { BodyDraft } from '../body-draft.js';
import type { RequestContext } from './request-context.js';

export function adjustStage(context: RequestContext): boolean {
  const { operation, request, query, pathParams, action } = context;
  const choice = context.choice!;
  // The changes are patches on one draft of the answer, its body checked once when all are in.
  const draft = new BodyDraft(context.built!);
  const sent = reflects(context.policy.echoRequests, context.selection) ? { query, body: context.body?.value } : undefined;
  agreeWithRequest(draft, operation, choice, pathParams, pageOfRequest(operation.cursorPaging, query), sent);
  keepLinksOnStub(draft, request, query, context.state.compiled.serverOrigins);
  if (operation.cursorPaging !== null) cursorPages(draft, operation.cursorPaging, request, query, stubOrigin(request));
  const created = choice.kind === 'state' && choice.change?.action === 'create' && action ? choice.change.id : null;
  if (created !== null && action) locateCreated(draft, request, action.resource.itemPath, action.resource.idParam, created, pathParams);
  context.adjusted = draft.settle();
  return true;
}

/** An RPC-style answer reflects the request's fields unless the client asked for a documented response (`Prefer: code=201`, an example by name). */
function reflects(echoRequests: boolean, selection: Selection): boolean {
  return echoRequests && selection.code === null && selection.example === null;
}
