/**
 * The spec text the catalogue was written from: "Hosted Payment Service API v1", whose copy is
 * docs/spec/hosted-payment-service-v1.md. Its SHA-256 is bound into every certificate, so a
 * certificate says which text its rules quote; test/catalogue-classes.test.ts checks the copy
 * against this constant (a new spec text means a new constant, a new catalogue review, and a
 * new tool version).
 */
export const SPEC_FILE = 'docs/spec/hosted-payment-service-v1.md';
export const SPEC_SHA256 = '07448897b785685bda665ef34c6fcb9ccf5ccc444dfd149da4547df07b35553d';
