// Pricing: what a customer pays for a list price.

export interface Discount {
  percent: number;
}

/** Takes the discount off a price in cents, never below zero. */
export function applyDiscount(price: number, d: Discount): number {
  const off = Math.floor((price * d.percent) / 100);
  return Math.max(price - off, 0);
}
