/**
 * Planted faults of the transitions area (spec: States and transitions), each a realistic bug
 * in reference/create-payment.ts, reference/payment-actions.ts or reference/payments.ts, with
 * the rule ids it must make fail.
 */
import type { FaultDefinition } from '../faults.ts';

export const TRANSITIONS_FAULTS = {
  'timestamps-default-to-created-at': {
    description: 'A new Payment gets paid_at and cancelled_at initialised to created_at (an "updated_at"-style default) instead of null.',
    breaks: ['TRANS-CREATE-PENDING', 'TRANS-CANCEL', 'TRANS-HELPER-SUCCEED', 'TRANS-HELPER-CANCEL'],
  },
  'cancel-forgets-cancelled-at': {
    description: 'cancelPayment moves the Payment to CANCELLED but never records cancelled_at.',
    breaks: ['TRANS-CANCEL'],
  },
  'succeed-forgets-paid-at': {
    description: 'The succeed helper moves the Payment to PAID but never records paid_at.',
    breaks: ['TRANS-HELPER-SUCCEED'],
  },
  'helper-cancel-not-persisted': {
    description: 'The cancel helper answers 200 CANCELLED from a copy of the Payment; the stored Payment stays PENDING.',
    breaks: ['TRANS-HELPER-CANCEL', 'TRANS-ILLEGAL'],
  },
  'cancelled-at-truncated-to-minute': {
    description: 'cancelled_at is recorded truncated to the whole minute, so it reads earlier than created_at.',
    breaks: ['TRANS-CANCEL', 'TRANS-HELPER-CANCEL'],
  },
  'cancel-allowed-from-paid': {
    description: 'cancelPayment only refuses a CANCELLED Payment: a PAID (or REVERSED) one is moved to CANCELLED.',
    breaks: ['TRANS-ILLEGAL', 'TRANS-REVERSED'],
  },
  'succeed-on-paid-answers-200': {
    description: 'The succeed helper treats a PAID Payment as already done and answers 200 with it instead of 409 invalid_transition.',
    breaks: ['TRANS-ILLEGAL'],
  },
  'helper-cancel-ignores-state': {
    description: 'The cancel helper does not check the state: any Payment, PAID, CANCELLED or REVERSED, is (re)cancelled and its cancelled_at overwritten.',
    breaks: ['TRANS-ILLEGAL', 'TRANS-REVERSED'],
  },
  'reversal-not-persisted': {
    description: 'The reversal answers REVERSED but the stored Payment stays PAID.',
    breaks: ['TRANS-REVERSED', 'TRANS-ILLEGAL'],
  },
} satisfies Record<string, FaultDefinition>;
