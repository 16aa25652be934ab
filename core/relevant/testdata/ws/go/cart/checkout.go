package cart

import "example.com/shop/pricing"

// Checkout prices one item for the payment page.
func Checkout(it Item, d pricing.Discount) int {
	return pricing.Apply(it.Price, d)
}
