// The messages instances exchange on Redis's admin channels (--state-store): an admin change to make
// everywhere, and each instance's acknowledgement. Anyone who can reach Redis can publish on these
// channels, so a message is input: what does not parse, or is not one of these shapes, is dropped.
import { Ajv } from 'ajv';
import type { AdminChange } from './whole-server.js';

export interface ChangeMessage {
  id: string;
  change: AdminChange;
}
export interface AckMessage {
  id: string;
  ok: boolean;
}

const nullableString = { type: ['string', 'null'] };
const change = {
  oneOf: [
    { type: 'object', required: ['kind', 'name'], properties: { kind: { const: 'sticky' }, name: nullableString, session: { type: 'string' } } },
    { type: 'object', required: ['kind'], properties: { kind: { const: 'scripts' }, session: { type: 'string' } } },
    { type: 'object', required: ['kind', 'scenario'], properties: { kind: { const: 'use' }, scenario: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } },
    { type: 'object', required: ['kind', 'name'], properties: { kind: { const: 'unuse' }, name: { type: 'string' }, session: { type: 'string' } } },
    { type: 'object', required: ['kind'], properties: { kind: { enum: ['reset', 'reload'] } } },
    { type: 'object', required: ['kind', 'name', 'url'], properties: { kind: { const: 'webhook' }, name: { type: 'string' }, url: nullableString } },
  ],
};
const ajv = new Ajv({ strict: false });
const isChange = ajv.compile<ChangeMessage>({ type: 'object', required: ['id', 'change'], properties: { id: { type: 'string' }, change } });
const isAck = ajv.compile<AckMessage>({ type: 'object', required: ['id', 'ok'], properties: { id: { type: 'string' }, ok: { type: 'boolean' } } });

/** The message when it is a well-formed change (kind `change`) or acknowledgement (kind `ack`), else null. */
export function readMessage(kind: 'change', text: string): ChangeMessage | null;
export function readMessage(kind: 'ack', text: string): AckMessage | null;
export function readMessage(kind: 'change' | 'ack', text: string): ChangeMessage | AckMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return (kind === 'change' ? isChange(value) : isAck(value)) ? (value as ChangeMessage | AckMessage) : null;
}
