import { applyDiscountCode, PriceCalculator } from "../cart/priceCalculator";

export function checkout(prices: number[], code: string): number {
  const calc = new PriceCalculator([]);
  const first = applyDiscountCode(calc.total(prices), { code, percent: 10 });
  const second = applyDiscountCode(first, { code, percent: 5 });
  return applyDiscountCode(second, { code, percent: 0 });
}
