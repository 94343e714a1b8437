/** The raw body bytes of a recorded delivery or redirect hit (stored as base64). */
export function deliveryBody(record: { body: string }): Buffer {
  return Buffer.from(record.body, 'base64');
}
