// Stage 6b, stream: a stream of events where `Accept` chose one, or a JSON body said
// `"stream": true` (answer-stream.ts). Such an answer leaves here with its events planned, for the
// adapters to pace; the stages that build and adjust a body do not apply to it.
import { STREAM_DEFAULTS, streamResponse, streamVariant } from '../answer-stream.js';
import type { RequestContext } from './request-context.js';

export function streamStage(context: RequestContext): boolean {
  const { request, operation } = context;
  const choice = context.choice!;
  const streamed = streamVariant(choice, request.headers.accept, context.body);
  if (streamed === null) return true;
  context.answer = streamResponse(operation, streamed, choice, request, context.state.stream ?? STREAM_DEFAULTS, context.selection);
  return false;
}
