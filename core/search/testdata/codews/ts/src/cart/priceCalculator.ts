export interface Discount {
  code: string;
  percent: number;
}

export function applyDiscountCode(total: number, d: Discount): number {
  return total * (1 - d.percent / 100);
}

export class PriceCalculator {
  constructor(private readonly discounts: Discount[]) {}

  total(prices: number[]): number {
    return prices.reduce((a, b) => a + b, 0);
  }
}
