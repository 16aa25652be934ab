package cart

import (
	"errors"

	"example.com/shop/pricing"
)

// ErrNoItem is what checking out an empty line returns; errors.New here is
// the standard library's, not pricing.New.
var ErrNoItem = errors.New("no item")

// Checkout prices one item for the payment page.
func Checkout(it Item, d pricing.Discount) int {
	return pricing.Apply(it.Price, d)
}
