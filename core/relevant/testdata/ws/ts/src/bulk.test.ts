import { applyDiscount } from "./pricing";

const discountCases = [[100, 10, 90]];

test("bulk applyDiscount", () => {
  for (const [price, percent, want] of discountCases) {
    expect(applyDiscount(2 * price, { percent })).toBe(2 * want);
  }
});
