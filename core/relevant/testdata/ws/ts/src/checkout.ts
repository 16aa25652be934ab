import { applyDiscount, Discount } from "./pricing";
import type { Line } from "./cart";

/** Price of one line on the payment page. */
export function checkoutPrice(line: Line, d: Discount): number {
  return applyDiscount(line.price, d);
}
