/**
 * Planted faults of the transitions area (spec: States and transitions), each a realistic bug
 * in reference/create-payment.ts, reference/payment-actions.ts or reference/payments.ts.
 */

export const TRANSITIONS_FAULTS = {
  'timestamps-default-to-created-at':
    'A new Payment gets paid_at and cancelled_at initialised to created_at (an "updated_at"-style default) instead of null.',
  'cancel-forgets-cancelled-at':
    'cancelPayment moves the Payment to CANCELLED but never records cancelled_at.',
  'succeed-forgets-paid-at':
    'The succeed helper moves the Payment to PAID but never records paid_at.',
  'helper-cancel-not-persisted':
    'The cancel helper answers 200 CANCELLED from a copy of the Payment; the stored Payment stays PENDING.',
  'cancelled-at-truncated-to-minute':
    'cancelled_at is recorded truncated to the whole minute, so it reads earlier than created_at.',
  'cancel-allowed-from-paid':
    'cancelPayment only refuses a CANCELLED Payment: a PAID (or REVERSED) one is moved to CANCELLED.',
  'succeed-on-paid-answers-200':
    'The succeed helper treats a PAID Payment as already done and answers 200 with it instead of 409 invalid_transition.',
  'helper-cancel-ignores-state':
    'The cancel helper does not check the state: any Payment, PAID, CANCELLED or REVERSED, is (re)cancelled and its cancelled_at overwritten.',
  'reversal-not-persisted':
    'The reversal answers REVERSED but the stored Payment stays PAID.',
} as const satisfies Readonly<Record<string, string>>;
