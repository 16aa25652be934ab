import { applyDiscount } from "./pricing";

const discountCases = [
  [100, 10, 90],
  [100, 0, 100],
  [100, 100, 0],
];

test("applyDiscount", () => {
  for (const [price, percent, want] of discountCases) {
    expect(applyDiscount(price, { percent })).toBe(want);
  }
});
