import { applyDiscount, Discount } from "./pricing";

export interface Line {
  sku: string;
  price: number;
  quantity: number;
}

/** What the customer pays, with the discount taken off each line. */
export function cartTotal(lines: Line[], d: Discount): number {
  let sum = 0;
  for (const line of lines) {
    sum += applyDiscount(line.price, d) * line.quantity;
  }
  return sum;
}
