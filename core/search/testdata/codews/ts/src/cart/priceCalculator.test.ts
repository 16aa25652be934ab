import { applyDiscountCode } from "./priceCalculator";

test("applyDiscountCode", () => {
  expect(applyDiscountCode(100, { code: "x", percent: 10 })).toBe(90);
  expect(applyDiscountCode(100, { code: "x", percent: 0 })).toBe(100);
});
