// Stage 6, choose: which answer, and in which media type. The state's answer where stateful mode
// gave one; else a body equal to a named request example gets the response example of that name,
// else the selection, the scripted choice or the documented success (select-response.ts). Then
// the media type the client accepts among those the chosen response documents, and a templated
// scenario's context, read from the request.
import { negotiateMedia } from '../negotiate-media.js';
import { isRefusal } from '../refusal.js';
import { pairedExample, selectResponse } from '../select-response.js';
import { templateContext } from '../templates.js';
import type { RequestContext } from './request-context.js';

export function chooseStage(context: RequestContext): boolean {
  const { operation, body, selection, policy, request, fromState } = context;
  const matched = context.scripted?.scenario ?? null;
  const paired = !fromState && !matched && body !== null && operation.body?.examples.size ? pairedExample(operation, body.value) : null;
  const selected = fromState ?? selectResponse(operation, context.scenarios, selection, context.sticky, body !== null && policy.echoRequests, matched, paired);
  if (isRefusal(selected)) {
    context.refusal = selected;
    return false;
  }
  const negotiated = negotiateMedia(selected, request.headers.accept, policy.preferredMedia);
  if (isRefusal(negotiated)) {
    context.refusal = negotiated;
    return false;
  }
  const rendered = negotiated.kind === 'scenario' && negotiated.scenario.render;
  context.choice = rendered ? { ...negotiated, context: templateContext(request, context.pathParams, context.query, body, context.session) } : negotiated;
  return true;
}
