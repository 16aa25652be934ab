// Flat-rate pricing kept for archived orders.

export function applyDiscount(price: number, flat: number): number {
  return Math.max(price - flat, 0);
}
