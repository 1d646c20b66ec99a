// Before the run, what a local server's slots mean for it: llama.cpp splits its context (-c) across its parallel slots
// (-np), so one request gets only its slot's share, and it decodes -np requests at once, so a higher concurrency only
// queues calls inside the server (where they wait against the run's timeoutMs). Both are said once, with the fix.
import type { ServerSlots } from '../providers/contract.js';

export interface SlotAdviceTarget {
  /** "provider:model", for messages. */
  key: string;
  endpoint: string;
  /** Calls the run keeps in flight to this model. */
  concurrency?: number;
}

export function slotAdvice(target: SlotAdviceTarget, slots: ServerSlots): string[] {
  const advice: string[] = [];
  const { slots: count, slotContext, context } = slots;
  if (count > 1 && slotContext !== undefined && (context === undefined || slotContext < context)) {
    const split = context !== undefined ? ` (-c ${context} split across -np ${count})` : ` (-np ${count})`;
    advice.push(`${target.key}: ${target.endpoint} gives each request ${slotContext} tokens${split}: a prompt plus maxTokens longer than that fails as "prompt too long" — start the server with -np 1 to give one request the whole context${context !== undefined ? ` (${context})` : ''}, or raise -c to keep ${count} slots`);
  }
  if (target.concurrency !== undefined && target.concurrency > count) {
    advice.push(`${target.key}: concurrency ${target.concurrency}, but ${target.endpoint} answers ${count} request${count === 1 ? '' : 's'} at a time (-np ${count}): the others wait in its queue, against timeoutMs — set concurrency: ${count} in the eval file, or start the server with -np ${target.concurrency}`);
  }
  return advice;
}
